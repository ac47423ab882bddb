package opt

import (
	"math/bits"

	"github.com/bpfcc/bpfcc/ir"
)

// selectBits turns `if (x & C1) r |= C2;` with one-bit C1 and C2 into
// r |= (x & C1) shifted to C2's bit, as clang does: flag translation
// tables (falco's quotactl and ptrace flags to its own) are chains of such
// tests, and as branches each path carries another constant r, which the
// verifier cannot merge once r is compared (1,816 insns against clang's
// 52 for eight tests). The pattern is a block ending
//
//	if x set C1 goto T else J
//
// where T, reached only from there, is `r = or r, C2` (or `t = or r, C2;
// r = mov t`, or `r = mov C2` when r is 0 in the block) and a jump to J.
func selectBits(f *ir.Func, _ *passCtx) {
	preds := map[*ir.Block]int{}
	for _, b := range f.Blocks {
		for _, s := range b.Succs() {
			preds[s]++
		}
	}
	uses := useCounts(f)
	for _, a := range f.Blocks {
		t := a.Term()
		if t == nil || t.Op != ir.OpBranch || t.Cond != ir.Set || t.Then == a || preds[t.Then] != 1 {
			continue
		}
		x, c1 := t.A, t.B
		if x.IsImm {
			x, c1 = c1, x
		}
		if x.IsImm || !c1.IsImm || c1.Imm <= 0 || bits.OnesCount64(uint64(c1.Imm)) != 1 {
			continue
		}
		body := t.Then.Instrs
		if len(body) < 2 || len(body) > 3 {
			continue
		}
		end := body[len(body)-1]
		if end.Op != ir.OpJump || end.Then != t.Else {
			continue
		}
		or, ok := setsBit(a, body[:len(body)-1], uses)
		if !ok || bits.OnesCount64(uint64(or.c2)) != 1 {
			continue
		}
		from, to := bits.TrailingZeros64(uint64(c1.Imm)), bits.TrailingZeros64(uint64(or.c2))
		bit := f.NewReg()
		seq := []*ir.Instr{{Op: ir.OpALU, ALU: ir.And, Dst: bit, A: x, B: c1, Pos: t.Pos}}
		if from != to {
			sh, op := to-from, ir.Lsh
			if sh < 0 {
				sh, op = -sh, ir.Rsh
			}
			moved := f.NewReg()
			seq = append(seq, &ir.Instr{Op: ir.OpALU, ALU: op, Dst: moved, A: ir.R(bit), B: ir.Imm(int64(sh)), Pos: t.Pos})
			bit = moved
		}
		if or.fromZero {
			seq = append(seq, &ir.Instr{Op: ir.OpMov, Dst: or.dst, A: ir.R(bit), Pos: t.Pos})
		} else {
			seq = append(seq, &ir.Instr{Op: ir.OpALU, ALU: ir.Or, Dst: or.dst, A: ir.R(or.r), B: ir.R(bit), W32: or.w32, Pos: t.Pos})
		}
		if or.copy != nil {
			seq = append(seq, &ir.Instr{Op: ir.OpMov, Dst: or.copy.Dst, A: or.copy.A, Pos: or.copy.Pos})
		}
		seq = append(seq, &ir.Instr{Op: ir.OpJump, Then: t.Else, Pos: t.Pos})
		a.Instrs = append(a.Instrs[:len(a.Instrs)-1], seq...)
		preds[t.Then]--
	}
}

// bitOr is what a then-block of selectBits sets.
type bitOr struct {
	r, dst   ir.Reg // the register or'd, and the one the or writes
	w32      bool
	c2       int64
	fromZero bool      // r = mov C2 where r is 0
	copy     *ir.Instr // r = mov t after t = or r, C2
}

// setsBit matches the then-block's instructions: r = or r, C2; or
// t = or r, C2; r = mov t (t used only there); or r = mov C2 with r
// holding 0 at the end of a.
func setsBit(a *ir.Block, ins []*ir.Instr, uses map[ir.Reg]int) (bitOr, bool) {
	first := ins[0]
	switch {
	case len(ins) == 1 && first.Op == ir.OpALU && first.ALU == ir.Or && !first.A.IsImm && first.A.Reg == first.Dst && first.B.IsImm:
		return bitOr{r: first.Dst, dst: first.Dst, c2: first.B.Imm, w32: first.W32}, true
	case len(ins) == 2 && first.Op == ir.OpALU && first.ALU == ir.Or && !first.A.IsImm && first.B.IsImm &&
		ins[1].Op == ir.OpMov && !ins[1].A.IsImm && ins[1].A.Reg == first.Dst && ins[1].Dst == first.A.Reg && uses[first.Dst] == 1:
		return bitOr{r: first.A.Reg, dst: first.Dst, c2: first.B.Imm, w32: first.W32, copy: ins[1]}, true
	case len(ins) == 1 && first.Op == ir.OpMov && first.A.IsImm && first.A.Imm > 0:
		i := lastDef(a.Instrs[:len(a.Instrs)-1], first.Dst)
		if i < 0 {
			return bitOr{}, false
		}
		d := a.Instrs[i]
		if d.Op != ir.OpMov || !d.A.IsImm || d.A.Imm != 0 {
			return bitOr{}, false
		}
		return bitOr{r: first.Dst, dst: first.Dst, c2: first.A.Imm, fromZero: true}, true
	}
	return bitOr{}, false
}
