package opt

import (
	"math"

	"github.com/bpfcc/bpfcc/ir"
)

// widenInductions drops the sign extension of a 32-bit induction variable
// that cannot be negative: `for (int i = 0; i < n; i++) a[i]` extends i to
// 64 bits for every use as an index or size_t operand, three instructions
// per iteration that the verifier walks each time round. Clang widens such
// variables (indvars); here the extension becomes a copy, which copy
// propagation and register allocation then remove.
//
// A register qualifies when every definition of it is a non-negative
// 32-bit constant outside one loop or one increment by a positive constant
// inside it (directly, or through a copy of the sum) that no inner cycle
// repeats, and the loop's exit test in its head or latch (which every
// iteration runs) compares it with a bound. Each iteration then adds the
// step once to a value that passed the test or is about to be tested, so
// the register never exceeds the larger of its start and the bound plus
// the step; when that is at most math.MaxInt32 its upper 32 bits are zero
// and sign and zero extension both give the register itself.
func widenInductions(f *ir.Func, _ *passCtx) {
	loops, _ := findLoops(f)
	if len(loops) == 0 {
		return
	}
	defs := map[ir.Reg][]*ir.Instr{}
	blockOf := map[*ir.Instr]*ir.Block{}
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			if in.Dst != 0 {
				defs[in.Dst] = append(defs[in.Dst], in)
				blockOf[in] = b
			}
		}
	}
	for _, p := range f.Params {
		defs[p] = append(defs[p], nil) // a parameter's value is unknown
	}
	wide := map[ir.Reg]bool{}
	for _, l := range loops {
		if r, ok := boundedInduction(l, defs, blockOf); ok {
			wide[r] = true
		}
	}
	if len(wide) == 0 {
		return
	}
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			if in.Op == ir.OpExt && in.Bits == 32 && !in.A.IsImm && wide[in.A.Reg] {
				*in = ir.Instr{Op: ir.OpMov, Dst: in.Dst, A: in.A, Pos: in.Pos, Note: in.Note}
			}
		}
	}
}

// boundedInduction returns the register l's exit test compares, when it
// is an induction variable that stays within [0, math.MaxInt32] (see
// widenInductions).
func boundedInduction(l *natLoop, defs map[ir.Reg][]*ir.Instr, blockOf map[*ir.Instr]*ir.Block) (ir.Reg, bool) {
	for _, tb := range []*ir.Block{l.head, l.latch} {
		r, most, ok := exitBound(l, tb, defs, blockOf)
		if !ok {
			continue
		}
		start, step, ok := inductionStep(l, r, defs, blockOf)
		if ok && max(start, most) <= math.MaxInt32-step {
			return r, true
		}
	}
	return 0, false
}

// exitBound reads block tb's branch as an exit test of l on a register r:
// it returns r and the largest value that stays in the loop.
func exitBound(l *natLoop, tb *ir.Block, defs map[ir.Reg][]*ir.Instr, blockOf map[*ir.Instr]*ir.Block) (ir.Reg, int64, bool) {
	t := tb.Term()
	if t == nil || t.Op != ir.OpBranch || l.in[t.Then] == l.in[t.Else] || t.A.IsImm {
		return 0, 0, false
	}
	cond := t.Cond
	if !l.in[t.Then] {
		c, ok := cond.Invert()
		if !ok {
			return 0, 0, false
		}
		cond = c
	}
	// The tested register: the variable itself in a 32-bit compare, or
	// its sign extension made in the same block.
	r := t.A.Reg
	if !t.W32 {
		x := defs[r]
		if len(x) != 1 || x[0] == nil || blockOf[x[0]] != tb || x[0].Op != ir.OpExt || x[0].Bits != 32 || !x[0].Signed || x[0].A.IsImm {
			return 0, 0, false
		}
		r = x[0].A.Reg
	}
	switch {
	case cond == ir.Slt && t.W32 && !t.B.IsImm:
		return r, math.MaxInt32 - 1, true
	case !t.B.IsImm || t.W32 && t.B.Imm != int64(int32(t.B.Imm)):
		return 0, 0, false
	case cond == ir.Slt || cond == ir.Ult:
		return r, t.B.Imm - 1, true
	case cond == ir.Sle || cond == ir.Ule:
		return r, t.B.Imm, true
	}
	return 0, 0, false
}

// inductionStep checks the definitions of r: non-negative 32-bit
// constants outside l, and one `r = add32 r, c` (or `s = add32 r, c; r =
// mov s`) in l that no inner cycle of l repeats. It returns the largest
// constant and c.
func inductionStep(l *natLoop, r ir.Reg, defs map[ir.Reg][]*ir.Instr, blockOf map[*ir.Instr]*ir.Block) (start, step int64, ok bool) {
	var inc *ir.Instr
	for _, d := range defs[r] {
		if d == nil {
			return 0, 0, false
		}
		if !l.in[blockOf[d]] {
			if d.Op != ir.OpMov || !d.A.IsImm || d.A.Imm < 0 || d.A.Imm > math.MaxInt32 {
				return 0, 0, false
			}
			start = max(start, d.A.Imm)
			continue
		}
		if inc != nil {
			return 0, 0, false
		}
		inc = d
	}
	if inc == nil {
		return 0, 0, false
	}
	sum := inc
	if inc.Op == ir.OpMov && !inc.A.IsImm {
		s := defs[inc.A.Reg]
		if len(s) != 1 || s[0] == nil || !l.in[blockOf[s[0]]] {
			return 0, 0, false
		}
		sum = s[0]
	}
	if sum.Op != ir.OpALU || sum.ALU != ir.Add || !sum.W32 || sum.A.IsImm || sum.A.Reg != r || !sum.B.IsImm || sum.B.Imm <= 0 || sum.B.Imm > 1<<16 {
		return 0, 0, false
	}
	for _, d := range []*ir.Instr{inc, sum} {
		if b := blockOf[d]; b != l.head && onInnerCycle(l, b) {
			return 0, 0, false
		}
	}
	return start, sum.B.Imm, true
}
