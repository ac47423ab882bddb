package opt

import (
	"slices"

	"github.com/bpfcc/bpfcc/ir"
)

// foldPointerDifferences turns `(p + a + b) - p` into `a + b`: the offset of
// a member computed as the difference of two addresses (scx's MEMBER_VPTR,
// `(u64)&base->m[i][j] - (u64)base`), as clang's instcombine folds it.
// Left as pointer minus pointer, the verifier knows nothing of the result
// (and refuses it outright in unprivileged programs), so each access the
// offset bounds is checked afresh (3.0x clang's verified instructions in
// scx_layered's stat updates). The sum is followed through 64-bit adds and
// copies of single-definition registers, whose values are the same at the
// subtraction.
func foldPointerDifferences(f *ir.Func) {
	defs := defCounts(f)
	def := map[ir.Reg]*ir.Instr{}
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			if in.Dst != 0 && defs[in.Dst] == 1 {
				def[in.Dst] = in
			}
		}
	}
	single := func(o ir.Operand) bool { return o.IsImm || defs[o.Reg] == 1 }
	// root follows copies of single-definition registers.
	root := func(o ir.Operand) ir.Operand {
		for i := 0; i < 8 && !o.IsImm; i++ {
			in := def[o.Reg]
			if in == nil || in.Op != ir.OpMov || !single(in.A) {
				break
			}
			o = in.A
		}
		return o
	}
	// terms lists what is added to base to make x.
	var terms func(x, base ir.Operand, depth int) ([]ir.Operand, bool)
	terms = func(x, base ir.Operand, depth int) ([]ir.Operand, bool) {
		x = root(x)
		if x == base {
			return nil, true
		}
		if x.IsImm || depth == 0 {
			return nil, false
		}
		add := def[x.Reg]
		if add == nil || add.Op != ir.OpALU || add.ALU != ir.Add || add.W32 || !single(add.A) || !single(add.B) {
			return nil, false
		}
		if ts, ok := terms(add.A, base, depth-1); ok {
			return append(ts, add.B), true
		}
		if ts, ok := terms(add.B, base, depth-1); ok {
			return append(ts, add.A), true
		}
		return nil, false
	}
	for _, b := range f.Blocks {
		for i := 0; i < len(b.Instrs); i++ {
			in := b.Instrs[i]
			if in.Op != ir.OpALU || in.ALU != ir.Sub || in.W32 || in.A.IsImm || in.B.IsImm || !single(in.A) || !single(in.B) {
				continue
			}
			base := root(in.B)
			ts, ok := terms(in.A, base, 6)
			if !ok || len(ts) == 0 {
				continue
			}
			// Registers first, then the constants' sum.
			var sum ir.Operand
			var seq []*ir.Instr
			var c int64
			for _, t := range ts {
				switch {
				case t.IsImm:
					c += t.Imm
				case sum == (ir.Operand{}):
					sum = t
				default:
					r := f.NewReg()
					seq = append(seq, &ir.Instr{Op: ir.OpALU, ALU: ir.Add, Dst: r, A: sum, B: t, Pos: in.Pos})
					sum = ir.R(r)
				}
			}
			switch {
			case sum == (ir.Operand{}):
				sum = ir.Imm(c)
			case c != 0:
				r := f.NewReg()
				seq = append(seq, &ir.Instr{Op: ir.OpALU, ALU: ir.Add, Dst: r, A: sum, B: ir.Imm(c), Pos: in.Pos})
				sum = ir.R(r)
			}
			*in = ir.Instr{Op: ir.OpMov, Dst: in.Dst, A: sum, Pos: in.Pos, Note: in.Note}
			b.Instrs = slices.Insert(b.Instrs, i, seq...)
			i += len(seq)
		}
	}
}
