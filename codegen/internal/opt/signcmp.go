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
// Which registers are non-negative (in their low 32 bits, as a signed
// int) is a forward must-analysis over the blocks: constants, zero
// extensions and narrow loads, masks, NSW sums and products of
// non-negative values, and the edge of a branch that tested the register
// against 0 or a non-negative bound.
func unsignCompares(f *ir.Func, _ *passCtx) {
	if len(f.Blocks) == 0 {
		return
	}
	renumber(f)
	n := len(f.Blocks)
	preds := make([][]*ir.Block, n)
	for _, b := range f.Blocks {
		for _, s := range b.Succs() {
			preds[s.ID] = append(preds[s.ID], b)
		}
	}
	type set = map[ir.Reg]bool
	// in[b] is nil while unvisited (the analysis' top: everything).
	in := make([]set, n)
	out := make([]set, n)
	edge := func(p, s *ir.Block) set {
		o := out[p.ID]
		if o == nil {
			return nil
		}
		t := p.Term()
		r, ok := nonNegOnEdge(t, s)
		if !ok {
			return o
		}
		e := make(set, len(o)+1)
		for k := range o {
			e[k] = true
		}
		for _, c := range copiesAtEnd(p, r) {
			e[c] = true
		}
		return e
	}
	for changed := true; changed; {
		changed = false
		for _, b := range f.Blocks {
			var cur set
			if b.ID == 0 {
				cur = set{}
			} else {
				for _, p := range preds[b.ID] {
					e := edge(p, b)
					if e == nil {
						continue // not yet known: top
					}
					if cur == nil {
						cur = make(set, len(e))
						for k := range e {
							cur[k] = true
						}
						continue
					}
					for k := range cur {
						if !e[k] {
							delete(cur, k)
						}
					}
				}
				if cur == nil {
					continue
				}
			}
			if in[b.ID] != nil && len(in[b.ID]) == len(cur) {
				continue
			}
			in[b.ID] = cur
			o := make(set, len(cur))
			for k := range cur {
				o[k] = true
			}
			for _, x := range b.Instrs {
				nonNegStep(o, x)
			}
			out[b.ID] = o
			changed = true
		}
	}
	for _, b := range f.Blocks {
		if in[b.ID] == nil {
			continue
		}
		o := make(set, len(in[b.ID]))
		for k := range in[b.ID] {
			o[k] = true
		}
		for _, x := range b.Instrs {
			if x.Op == ir.OpBranch && x.W32 {
				nonNeg := func(op ir.Operand) bool {
					if op.IsImm {
						return int32(op.Imm) >= 0
					}
					return o[op.Reg]
				}
				if u, ok := unsignedCond[x.Cond]; ok && nonNeg(x.A) && nonNeg(x.B) {
					x.Cond = u
				}
			}
			nonNegStep(o, x)
		}
	}
}

// unsignedCond maps a signed comparison to its unsigned twin.
var unsignedCond = map[ir.Cond]ir.Cond{ir.Sgt: ir.Ugt, ir.Sge: ir.Uge, ir.Slt: ir.Ult, ir.Sle: ir.Ule}

// nonNegStep updates the set of registers non-negative as 32-bit signed
// values past instruction x.
func nonNegStep(o map[ir.Reg]bool, x *ir.Instr) {
	if x.Dst == 0 {
		return
	}
	nn := func(op ir.Operand) bool {
		if op.IsImm {
			return int32(op.Imm) >= 0
		}
		return o[op.Reg]
	}
	v := false
	switch x.Op {
	case ir.OpMov:
		v = nn(x.A)
	case ir.OpExt:
		v = !x.Signed && x.Bits < 32 || x.Bits == 32 && nn(x.A)
	case ir.OpLoad:
		v = !x.Signed && x.Size < 4
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
		case ir.Rsh:
			v = x.W32 && x.B.IsImm && x.B.Imm&31 > 0
		}
	}
	if v {
		o[x.Dst] = true
	} else {
		delete(o, x.Dst)
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
