package opt

import (
	"slices"

	"github.com/bpfcc/bpfcc/codegen/internal/regalloc"
	"github.com/bpfcc/bpfcc/ir"
)

// sinkToUses moves a computation down into the successor whose paths are
// the only ones that use it, as LLVM's instruction sinking does: a packet
// read written before the bounds check that guards it (loxilb's parser:
// `int iphl = iph->ihl << 2; if (iph + 1 > dend) return -1;`) then runs
// after the check, where the verifier allows it, and the paths that
// leave early do not compute it.
//
// An instruction moves from block A to the start of its successor S when
// S's only predecessor is A, every use of its result (defined there only)
// is in blocks S dominates, no later instruction of A redefines its
// operands, and, for a load, nothing after it in A writes memory.
// Instructions move from A's end backward, so a chain (the load, its
// shift) moves together.
func sinkToUses(f *ir.Func, _ *passCtx) {
	if len(f.Blocks) < 2 {
		return
	}
	renumber(f)
	idom := dominators(f)
	pre, post := domIntervals(idom)
	dominates := func(a, b *ir.Block) bool {
		return pre[a.ID] >= 0 && pre[b.ID] >= 0 && pre[a.ID] <= pre[b.ID] && post[b.ID] <= post[a.ID]
	}
	preds := make([]int, len(f.Blocks))
	for _, b := range f.Blocks {
		for _, s := range b.Succs() {
			preds[s.ID]++
		}
	}
	defs := defCounts(f)
	live := liveness(f)
	uses := map[ir.Reg]map[*ir.Block]int{}
	use := func(r ir.Reg, b *ir.Block, n int) {
		m := uses[r]
		if m == nil {
			m = map[*ir.Block]int{}
			uses[r] = m
		}
		if m[b] += n; m[b] == 0 {
			delete(m, b)
		}
	}
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			forEachUse(in, func(o *ir.Operand) { use(o.Reg, b, 1) })
		}
	}

	for _, a := range f.Blocks {
		term := a.Term()
		if term == nil || len(a.Instrs) < 2 {
			continue
		}
		var targets []*ir.Block
		for _, s := range a.Succs() {
			if preds[s.ID] == 1 && s != a && !dominates(s, a) {
				targets = append(targets, s)
			}
		}
		if len(targets) == 0 {
			continue
		}
		redefined := map[ir.Reg]bool{}
		usedLater := map[ir.Reg]bool{}
		forEachUse(term, func(o *ir.Operand) { usedLater[o.Reg] = true })
		writes := false
		moved := map[*ir.Block][]*ir.Instr{}
		kept := make([]*ir.Instr, 0, len(a.Instrs))
		for i := len(a.Instrs) - 2; i >= 0; i-- {
			in := a.Instrs[i]
			to := sinkTarget(in, targets, defs, uses, usedLater, redefined, writes, dominates)
			if to == nil && in.Dst != 0 && defs[in.Dst] > 1 {
				to = sinkReassigned(in, a, targets, live, uses, usedLater, redefined, writes)
			}
			if to != nil {
				moved[to] = append([]*ir.Instr{in}, moved[to]...)
				forEachUse(in, func(o *ir.Operand) {
					use(o.Reg, a, -1)
					use(o.Reg, to, 1)
				})
				continue
			}
			kept = append(kept, in)
			if in.Dst != 0 {
				redefined[in.Dst] = true
			}
			forEachUse(in, func(o *ir.Operand) { usedLater[o.Reg] = true })
			switch in.Op {
			case ir.OpStore, ir.OpAtomic, ir.OpCall, ir.OpCallFunc, ir.OpAsm:
				writes = true
			}
		}
		if len(moved) == 0 {
			continue
		}
		for l, r := 0, len(kept)-1; l < r; l, r = l+1, r-1 {
			kept[l], kept[r] = kept[r], kept[l]
		}
		a.Instrs = append(kept, term)
		for _, s := range targets {
			if ins := moved[s]; len(ins) > 0 {
				s.Instrs = append(ins, s.Instrs...)
			}
		}
	}
}

// sinkTarget returns the block of targets in may move to, or nil.
func sinkTarget(in *ir.Instr, targets []*ir.Block, defs map[ir.Reg]int, uses map[ir.Reg]map[*ir.Block]int,
	usedLater, redefined map[ir.Reg]bool, writes bool, dominates func(a, b *ir.Block) bool) *ir.Block {
	if !movable(in, usedLater, redefined, writes) || defs[in.Dst] != 1 || len(uses[in.Dst]) == 0 {
		return nil
	}
	for _, s := range targets {
		all := true
		for b := range uses[in.Dst] {
			if !dominates(s, b) {
				all = false
				break
			}
		}
		if all {
			return s
		}
	}
	return nil
}

// sinkReassigned returns the successor of a that in, whose register is
// assigned elsewhere too (an unrolled loop's copies: tracee's `addr =
// &b->args[b->offset]` before the check of b->offset), may move to: the
// only successor its value is live into, entered from a alone, with the
// register neither read nor assigned again after in within a.
func sinkReassigned(in *ir.Instr, a *ir.Block, targets []*ir.Block, live *regalloc.BlockLive,
	uses map[ir.Reg]map[*ir.Block]int, usedLater, redefined map[ir.Reg]bool, writes bool) *ir.Block {
	r := in.Dst
	if !movable(in, usedLater, redefined, writes) || redefined[r] {
		return nil
	}
	var to *ir.Block
	for _, s := range a.Succs() {
		// Live there by the liveness computed first, or read by what
		// this pass moved there since.
		if !live.LiveIn(s.ID, int(r)) && uses[r][s] == 0 {
			continue
		}
		if to != nil || !slices.Contains(targets, s) {
			return nil
		}
		to = s
	}
	return to
}

// movable reports whether in, a computation without effects, may leave
// its block for a successor: its result is not read after it in the block,
// its operands keep their values to the block's end (and are not its
// result), and for a load nothing after it writes memory.
func movable(in *ir.Instr, usedLater, redefined map[ir.Reg]bool, writes bool) bool {
	switch in.Op {
	case ir.OpMov, ir.OpALU, ir.OpExt, ir.OpNeg, ir.OpBswap:
	case ir.OpLoad:
		if in.Volatile || writes {
			return false
		}
	default:
		return false
	}
	if in.Dst == 0 || usedLater[in.Dst] || in.Note != "" {
		return false
	}
	kept := true
	forEachUse(in, func(o *ir.Operand) {
		if redefined[o.Reg] || o.Reg == in.Dst {
			kept = false
		}
	})
	return kept
}
