package opt

import "github.com/bpfcc/bpfcc/ir"

// foldJoinConstants folds an operation at the start of a join into its
// predecessors when each of them sets the operand to a constant just
// before jumping there. `r = (v > 0xFFFF) << 4` (bcc's log2 in every
// histogram tool) materialises 1 and 0 in two arms and shifts at the join:
// the arms set 16 and 0 instead, as clang's select folds, and every path
// loses an instruction. Reports whether it folded one.
func foldJoinConstants(f *ir.Func) bool {
	preds := map[*ir.Block][]*ir.Block{}
	for _, b := range f.Blocks {
		for _, s := range b.Succs() {
			preds[s] = append(preds[s], b)
		}
	}
	changed := false
	for bi, j := range f.Blocks {
		ps := preds[j]
		if bi == 0 || len(ps) < 2 {
			continue
		}
	next:
		for len(j.Instrs) > 1 {
			in := j.Instrs[0]
			r, ok := constFoldOperand(in)
			if !ok {
				break
			}
			ks := make([]int64, len(ps))
			for i, p := range ps {
				k, ok := constBeforeJump(p, j, r)
				if !ok {
					break next
				}
				ks[i] = k
			}
			for i, p := range ps {
				mov := &ir.Instr{Op: ir.OpMov, Dst: in.Dst, A: ir.Imm(evalOn(in, ks[i])), Pos: in.Pos}
				n := len(p.Instrs)
				if in.Dst == r {
					p.Instrs[n-2] = mov
				} else {
					p.Instrs = append(p.Instrs[:n-1], mov, p.Instrs[n-1])
				}
			}
			j.Instrs = j.Instrs[1:]
			changed = true
		}
	}
	return changed
}

// constFoldOperand returns the register in computes from, when in folds
// once that register is a constant.
func constFoldOperand(in *ir.Instr) (ir.Reg, bool) {
	if in.Dst == 0 || in.A.IsImm {
		return 0, false
	}
	switch in.Op {
	case ir.OpALU:
		return in.A.Reg, in.B.IsImm && !(isDivisionALU(in.ALU) && in.B.Imm == 0)
	case ir.OpNeg, ir.OpExt, ir.OpBswap:
		return in.A.Reg, true
	}
	return 0, false
}

// evalOn is in's result when its register operand holds k.
func evalOn(in *ir.Instr, k int64) int64 {
	switch in.Op {
	case ir.OpALU:
		return ir.EvalALU(in.ALU, in.W32, k, in.B.Imm)
	case ir.OpNeg:
		return ir.EvalALU(ir.Sub, in.W32, 0, k)
	case ir.OpExt:
		return ir.EvalExt(k, in.Bits, in.Signed)
	}
	return ir.EvalBswap(k, in.Bits)
}

// constBeforeJump reports the constant p sets r to right before its jump
// to j, p's only way out.
func constBeforeJump(p, j *ir.Block, r ir.Reg) (int64, bool) {
	n := len(p.Instrs)
	if p == j || n < 2 {
		return 0, false
	}
	t, mov := p.Instrs[n-1], p.Instrs[n-2]
	if t.Op != ir.OpJump || t.Then != j || mov.Op != ir.OpMov || mov.Dst != r || !mov.A.IsImm {
		return 0, false
	}
	return mov.A.Imm, true
}
