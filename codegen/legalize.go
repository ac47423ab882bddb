package codegen

import "github.com/bpfcc/bpfcc/ir"

// legalize rewrites operations the target CPU lacks: signed division and
// modulo below v4, 32-bit comparisons below v3.
func legalize(f *ir.Func, c *passCtx) {
	for _, b := range f.Blocks {
		var out []*ir.Instr
		for _, in := range b.Instrs {
			switch {
			case in.Op == ir.OpALU && (in.ALU == ir.SDiv || in.ALU == ir.SMod) && c.cpu < 4:
				out = append(out, expandSDiv(f, in)...)
			case in.Op == ir.OpBranch && in.W32 && c.cpu < 3:
				out = append(out, widenBranch(f, in)...)
			default:
				out = append(out, in)
			}
		}
		b.Instrs = out
	}
}

// builder emits instructions, folding those whose operands are constants.
type builder struct {
	f   *ir.Func
	out []*ir.Instr
	pos ir.Pos
	w32 bool
}

func (b *builder) alu(op ir.ALU, x, y ir.Operand) ir.Operand {
	if x.IsImm && y.IsImm && !((op == ir.UDiv || op == ir.UMod) && y.Imm == 0) {
		return ir.Imm(evalALU(op, b.w32, x.Imm, y.Imm))
	}
	d := b.f.NewReg()
	b.out = append(b.out, &ir.Instr{Op: ir.OpALU, ALU: op, W32: b.w32, Dst: d, A: x, B: y, Pos: b.pos})
	return ir.R(d)
}

// expandSDiv computes a signed quotient or remainder (C semantics: the
// quotient truncates toward zero, the remainder has the dividend's sign)
// with unsigned division on magnitudes, branch-free:
//
//	sa = a >>s N; sb = b >>s N           (0 or -1)
//	ua = (a^sa)-sa; ub = (b^sb)-sb       (|a|, |b|)
//	q = ((ua/ub) ^ (sa^sb)) - (sa^sb)
//	r = ((ua%ub) ^ sa) - sa
//
// Division by zero gives 0 and modulo by zero the dividend, as v4's sdiv and
// smod do.
func expandSDiv(f *ir.Func, in *ir.Instr) []*ir.Instr {
	b := &builder{f: f, pos: in.Pos, w32: in.W32}
	shift := ir.Imm(63)
	if in.W32 {
		shift = ir.Imm(31)
	}
	sa := b.alu(ir.Arsh, in.A, shift)
	sb := b.alu(ir.Arsh, in.B, shift)
	ua := b.alu(ir.Sub, b.alu(ir.Xor, in.A, sa), sa)
	ub := b.alu(ir.Sub, b.alu(ir.Xor, in.B, sb), sb)
	var res ir.Operand
	if in.ALU == ir.SDiv {
		q := b.alu(ir.UDiv, ua, ub)
		s := b.alu(ir.Xor, sa, sb)
		res = b.alu(ir.Sub, b.alu(ir.Xor, q, s), s)
	} else {
		r := b.alu(ir.UMod, ua, ub)
		res = b.alu(ir.Sub, b.alu(ir.Xor, r, sa), sa)
	}
	// Write the result into the original destination.
	if n := len(b.out); n > 0 && !res.IsImm && b.out[n-1].Dst == res.Reg {
		b.out[n-1].Dst = in.Dst
	} else {
		b.out = append(b.out, &ir.Instr{Op: ir.OpMov, Dst: in.Dst, A: res, Pos: in.Pos})
	}
	if len(b.out) > 0 && in.Note != "" {
		b.out[0].Note = in.Note
	}
	return b.out
}

// widenBranch extends both operands of a 32-bit comparison to 64 bits
// (sign-extending for signed conditions) for CPUs without JMP32.
func widenBranch(f *ir.Func, in *ir.Instr) []*ir.Instr {
	signed := in.Cond == ir.Sgt || in.Cond == ir.Sge || in.Cond == ir.Slt || in.Cond == ir.Sle
	var out []*ir.Instr
	widen := func(o ir.Operand) ir.Operand {
		if o.IsImm {
			return ir.Imm(evalExt(o.Imm, 32, signed))
		}
		d := f.NewReg()
		out = append(out, &ir.Instr{Op: ir.OpExt, Dst: d, A: o, Bits: 32, Signed: signed, Pos: in.Pos})
		return ir.R(d)
	}
	nb := *in
	nb.A, nb.B, nb.W32 = widen(in.A), widen(in.B), false
	if len(out) > 0 && in.Note != "" {
		out[0].Note, nb.Note = in.Note, ""
	}
	return append(out, &nb)
}
