package opt

import "github.com/bpfcc/bpfcc/ir"

// unsignCompares turns a signed 32-bit comparison whose operands cannot be
// negative into the unsigned one, as clang's instcombine does: the
// verifier then bounds the value from above in the unsigned range a
// helper's size or an offset is checked in. `if (n < 0) n = 0; n++; if
// (n > MAX) n = MAX;` with an int n (inspektor-gadget's fsnotify) left a
// signed bound of 4096 and an unsigned one of 0x80000000, the wrapped
// n + 1 the verifier cannot exclude: "R2 unbounded memory access". C's
// signed arithmetic does not overflow (ir.Instr.NSW), so n + 1 is
// positive.
//
// A register is non-negative (in its low 32 bits, as a signed int) when
// valueWidths bounds it below 2^31 (constants, narrow loads, zero
// extensions, masks, shifts), or, flow-sensitively, by a forward
// must-analysis over the blocks: NSW sums and products and masks of
// non-negative values, and the edge of a branch that tested the register
// (or a copy) against 0 or a non-negative bound.
func unsignCompares(f *ir.Func, _ *passCtx) {
	if len(f.Blocks) == 0 {
		return
	}
	// Only the registers a signed 32-bit compare reads, and those their
	// values are computed from, are followed: a compact index keeps the
	// sets small bitsets (a 20,000-line function has few compares and
	// tens of thousands of registers).
	idx := map[ir.Reg]int{}
	var regs []ir.Reg
	want := func(r ir.Reg) {
		if _, ok := idx[r]; !ok {
			idx[r] = len(regs)
			regs = append(regs, r)
		}
	}
	defs := map[ir.Reg][]*ir.Instr{}
	for _, b := range f.Blocks {
		for _, x := range b.Instrs {
			if x.Dst != 0 {
				defs[x.Dst] = append(defs[x.Dst], x)
			}
			if x.Op == ir.OpBranch && x.W32 {
				if _, ok := unsignedCond[x.Cond]; ok {
					for _, o := range []ir.Operand{x.A, x.B} {
						if !o.IsImm {
							want(o.Reg)
						}
					}
				}
			}
		}
	}
	if len(regs) == 0 {
		return
	}
	for i := 0; i < len(regs); i++ {
		for _, d := range defs[regs[i]] {
			if d.Op == ir.OpMov || d.Op == ir.OpALU || d.Op == ir.OpExt {
				for _, o := range []ir.Operand{d.A, d.B} {
					if !o.IsImm && o.Reg != 0 {
						want(o.Reg)
					}
				}
			}
		}
	}
	nn := nonNegFacts{idx: idx, w: valueWidths(f)}
	renumber(f)
	n := len(f.Blocks)
	preds := make([][]*ir.Block, n)
	for _, b := range f.Blocks {
		for _, s := range b.Succs() {
			preds[s.ID] = append(preds[s.ID], b)
		}
	}
	words := (len(regs) + 63) / 64
	// in[b] is nil while unvisited (the analysis' top: everything).
	in := make([]nonNegSet, n)
	out := make([]nonNegSet, n)
	edge := func(p, s *ir.Block) nonNegSet {
		o := out[p.ID]
		if o == nil {
			return nil
		}
		r, ok := nonNegOnEdge(p.Term(), s)
		if !ok {
			return o
		}
		e := append(nonNegSet(nil), o...)
		for _, c := range copiesAtEnd(p, r) {
			if i, ok := idx[c]; ok {
				e.set(i)
			}
		}
		return e
	}
	for changed := true; changed; {
		changed = false
		for _, b := range f.Blocks {
			var cur nonNegSet
			if b.ID == 0 {
				cur = make(nonNegSet, words)
			} else {
				for _, p := range preds[b.ID] {
					e := edge(p, b)
					switch {
					case e == nil: // not yet known: top
					case cur == nil:
						cur = append(nonNegSet(nil), e...)
					default:
						for w := range cur {
							cur[w] &= e[w]
						}
					}
				}
				if cur == nil {
					continue
				}
			}
			if in[b.ID] != nil && in[b.ID].equal(cur) {
				continue
			}
			in[b.ID] = cur
			o := append(nonNegSet(nil), cur...)
			for _, x := range b.Instrs {
				nn.step(o, x)
			}
			out[b.ID] = o
			changed = true
		}
	}
	for _, b := range f.Blocks {
		if in[b.ID] == nil {
			continue
		}
		o := append(nonNegSet(nil), in[b.ID]...)
		for _, x := range b.Instrs {
			if x.Op == ir.OpBranch && x.W32 {
				if u, ok := unsignedCond[x.Cond]; ok && nn.nonNeg(o, x.A) && nn.nonNeg(o, x.B) {
					x.Cond = u
				}
			}
			nn.step(o, x)
		}
	}
}

// nonNegSet is a bitset over unsignCompares' register index.
type nonNegSet []uint64

func (s nonNegSet) set(i int)      { s[i/64] |= 1 << (i % 64) }
func (s nonNegSet) clear(i int)    { s[i/64] &^= 1 << (i % 64) }
func (s nonNegSet) has(i int) bool { return s[i/64]&(1<<(i%64)) != 0 }

func (s nonNegSet) equal(t nonNegSet) bool {
	for i := range s {
		if s[i] != t[i] {
			return false
		}
	}
	return true
}

// unsignedCond maps a signed comparison to its unsigned twin.
var unsignedCond = map[ir.Cond]ir.Cond{ir.Sgt: ir.Ugt, ir.Sge: ir.Uge, ir.Slt: ir.Ult, ir.Sle: ir.Ule}

// nonNegFacts tells non-negative operands from unsignCompares' register
// index, a block's bitset and the flow-insensitive widths.
type nonNegFacts struct {
	idx map[ir.Reg]int
	w   widths
}

// nonNeg reports whether an operand is non-negative as a 32-bit int.
func (f nonNegFacts) nonNeg(s nonNegSet, o ir.Operand) bool {
	if o.IsImm {
		return int32(o.Imm) >= 0
	}
	if f.w.of(o) <= 31 {
		return true
	}
	i, ok := f.idx[o.Reg]
	return ok && s.has(i)
}

// step updates the set past instruction x.
func (f nonNegFacts) step(s nonNegSet, x *ir.Instr) {
	d, ok := f.idx[x.Dst]
	if x.Dst == 0 || !ok {
		return
	}
	nn := func(op ir.Operand) bool { return f.nonNeg(s, op) }
	v := false
	switch x.Op {
	case ir.OpMov:
		v = nn(x.A)
	case ir.OpExt:
		// The low 32 bits as they were.
		v = x.Bits == 32 && nn(x.A)
	case ir.OpALU:
		switch x.ALU {
		case ir.Add, ir.Mul:
			v = x.NSW && nn(x.A) && nn(x.B)
		case ir.And:
			v = nn(x.A) || nn(x.B)
		case ir.Or:
			v = nn(x.A) && nn(x.B)
		case ir.UDiv, ir.UMod:
			// No more than the dividend.
			v = x.W32 && nn(x.A)
		}
	}
	if v {
		s.set(d)
	} else {
		s.clear(d)
	}
}

// nonNegOnEdge returns the register the branch t shows to be non-negative
// (as a 32-bit signed value) on its edge to s.
func nonNegOnEdge(t *ir.Instr, s *ir.Block) (ir.Reg, bool) {
	if t == nil || t.Op != ir.OpBranch || !t.W32 || t.A.IsImm || !t.B.IsImm || t.Then == t.Else {
		return 0, false
	}
	k := int64(int32(t.B.Imm))
	taken := s == t.Then
	switch t.Cond {
	case ir.Slt: // A < k false: A >= k
		return t.A.Reg, !taken && k >= 0
	case ir.Sle: // A <= k false: A > k
		return t.A.Reg, !taken && k >= -1
	case ir.Sgt:
		return t.A.Reg, taken && k >= -1
	case ir.Sge:
		return t.A.Reg, taken && k >= 0
	case ir.Eq:
		return t.A.Reg, taken && k >= 0
	}
	return 0, false
}

// copiesAtEnd returns r and the registers that hold r's value at the end
// of b: copies of r made after its last definition, and the register r's
// definition copied, when nothing redefines them after (the branch tests a
// copy of the variable: `r4 = mov r9; if r9 slt32 0`).
func copiesAtEnd(b *ir.Block, r ir.Reg) []ir.Reg {
	out := []ir.Reg{r}
	for i := len(b.Instrs) - 1; i >= 0; i-- {
		x := b.Instrs[i]
		if x.Dst == r {
			if x.Op == ir.OpMov && !x.A.IsImm && !redefinedAfter(b, i, x.A.Reg) {
				out = append(out, x.A.Reg)
			}
			break
		}
		if x.Op == ir.OpMov && !x.A.IsImm && x.A.Reg == r && x.Dst != 0 && !redefinedAfter(b, i, x.Dst) {
			out = append(out, x.Dst)
		}
	}
	return out
}

// redefinedAfter reports whether r is assigned in b after index i.
func redefinedAfter(b *ir.Block, i int, r ir.Reg) bool {
	for _, x := range b.Instrs[i+1:] {
		if x.Dst == r {
			return true
		}
	}
	return false
}
