package opt

import "github.com/bpfcc/bpfcc/ir"

// ensureEntry gives f an entry block that no branch targets, so that the
// parameter set-up at its top runs once.
func ensureEntry(f *ir.Func, _ *passCtx) {
	if len(f.Blocks) == 0 {
		return
	}
	entry := f.Blocks[0]
	if predecessors(f)[entry] == 0 {
		return
	}
	nb := &ir.Block{Instrs: []*ir.Instr{{Op: ir.OpJump, Then: entry, Pos: f.Pos}}}
	f.Blocks = append([]*ir.Block{nb}, f.Blocks...)
	renumber(f)
}

// removeUnreachable drops blocks that cannot be reached from the entry (the
// verifier rejects unreachable instructions).
func removeUnreachable(f *ir.Func, _ *passCtx) {
	if len(f.Blocks) == 0 {
		return
	}
	seen := map[*ir.Block]bool{f.Blocks[0]: true}
	work := []*ir.Block{f.Blocks[0]}
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		for _, s := range b.Succs() {
			if !seen[s] {
				seen[s] = true
				work = append(work, s)
			}
		}
	}
	kept := f.Blocks[:0]
	for _, b := range f.Blocks {
		if seen[b] {
			kept = append(kept, b)
		}
	}
	f.Blocks = kept
	renumber(f)
}

// simplifyCFG turns branches with equal targets into jumps, threads jumps
// through blocks that only jump, and merges a block into its only
// predecessor when that predecessor jumps to it.
func simplifyCFG(f *ir.Func, c *passCtx) {
	for changed := true; changed; {
		changed = false
		for _, b := range f.Blocks {
			t := b.Term()
			if t != nil && t.Op == ir.OpBranch && t.Then == t.Else {
				*t = ir.Instr{Op: ir.OpJump, Then: t.Then, Pos: t.Pos, Note: t.Note}
				changed = true
			}
		}
		entry := f.Blocks[0]
		forward := func(b *ir.Block) *ir.Block {
			for steps := 0; steps < len(f.Blocks); steps++ {
				if b == entry || len(b.Instrs) != 1 || b.Instrs[0].Op != ir.OpJump || b.Instrs[0].Note != "" || b.Instrs[0].Then == b {
					return b
				}
				b = b.Instrs[0].Then
			}
			return b
		}
		for _, b := range f.Blocks {
			t := b.Term()
			if t == nil {
				continue
			}
			if t.Then != nil {
				if n := forward(t.Then); n != t.Then {
					t.Then, changed = n, true
				}
			}
			if t.Else != nil {
				if n := forward(t.Else); n != t.Else {
					t.Else, changed = n, true
				}
			}
		}
		preds := predecessors(f)
		for _, b := range f.Blocks {
			t := b.Term()
			if t == nil || t.Op != ir.OpJump {
				continue
			}
			s := t.Then
			if s == b || s == entry || preds[s] != 1 || len(s.Instrs) == 0 {
				continue
			}
			if t.Note != "" && s.Instrs[0].Note == "" {
				s.Instrs[0].Note = t.Note
			}
			b.Instrs = append(b.Instrs[:len(b.Instrs)-1], s.Instrs...)
			s.Instrs = []*ir.Instr{{Op: ir.OpJump, Then: s}} // now unreachable
			preds[s] = 0
			changed = true
		}
		removeUnreachable(f, c)
	}
}
