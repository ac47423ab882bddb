package lower

import (
	"fmt"

	"modernc.org/cc/v4"

	"github.com/bpfcc/bpfcc/ir"
)

// __int128 values live in memory, as aggregates do (a value is the
// address of its 16 bytes, low half first): BPF registers are 64 bits.
// Copies, conversions to and from the other integers, comparisons, the
// bitwise operations, addition, subtraction and shifts by a constant work
// on the two halves, as clang's BPF back end expands them; multiplication,
// division and variable shifts are reported. (bcc's libbpf-tools keep IPv6
// addresses in unsigned __int128 fields.)

func isInt128(t cc.Type) bool {
	if t == nil {
		return false
	}
	k := t.Kind()
	return k == cc.Int128 || k == cc.UInt128
}

// convertible reports whether a value stored to an object of type t is
// converted to t first: scalars, and __int128, which lives in memory but
// takes its value from any integer.
func convertible(t cc.Type) bool { return !isAggregate(t) || isInt128(t) }

// halves loads the two 64-bit halves of the 128-bit value v.
func (fl *fnLowerer) halves(v value) (lo, hi ir.Operand) {
	base := fl.toReg(v)
	l, h := fl.tmp(), fl.tmp()
	fl.emit(&ir.Instr{Op: ir.OpLoad, Dst: l, A: ir.R(base), Off: 0, Size: 8})
	fl.emit(&ir.Instr{Op: ir.OpLoad, Dst: h, A: ir.R(base), Off: 8, Size: 8})
	return ir.R(l), ir.R(h)
}

// make128 stores lo and hi in a fresh stack object: the value of type t.
func (fl *fnLowerer) make128(lo, hi ir.Operand, t cc.Type) value {
	addr := ir.R(fl.addr(lvalue{t: t, slot: fl.f.NewSlot("int128", 16, 8)}))
	for i, half := range []ir.Operand{lo, hi} {
		if half.IsImm && half.Imm != 0 {
			// A constant goes through a register: the verifier keeps
			// what a register spilled, an immediate store only 8-byte
			// aligned, and a store's immediate is 32 bits.
			half = ir.R(fl.toReg(value{op: half, t: fl.l.u.AST.ULong}))
		}
		fl.emit(&ir.Instr{Op: ir.OpStore, A: addr, B: half, Off: int64(8 * i), Size: 8})
	}
	return value{op: addr, t: t}
}

// widen128 converts the integer v to the 128-bit type t.
func (fl *fnLowerer) widen128(v value, t cc.Type) value {
	signed := isSigned(v.t)
	if v.op.IsImm {
		hi := int64(0)
		if signed && v.op.Imm < 0 {
			hi = -1
		}
		return fl.make128(v.op, ir.Imm(hi), t)
	}
	lo := fl.convert(v, fl.longType(v.t))
	if !signed {
		return fl.make128(lo.op, ir.Imm(0), t)
	}
	hi := fl.binop(ir.Arsh, lo, value{op: ir.Imm(63), t: lo.t}, lo.t)
	return fl.make128(lo.op, hi.op, t)
}

// narrow128 converts the 128-bit value v to the integer type t: its low
// half, or for _Bool whether either half is set.
func (fl *fnLowerer) narrow128(v value, t cc.Type) value {
	lo, hi := fl.halves(v)
	if t.Kind() == cc.Bool {
		either := fl.binop(ir.Or, value{op: lo, t: fl.l.u.AST.ULong}, value{op: hi, t: fl.l.u.AST.ULong}, fl.l.u.AST.ULong)
		return fl.convert(either, t)
	}
	return fl.convert(value{op: lo, t: fl.l.u.AST.ULong}, t)
}

// truth128 is the 64-bit value that is zero exactly when v is.
func (fl *fnLowerer) truth128(v value) value {
	lo, hi := fl.halves(v)
	ul := fl.l.u.AST.ULong
	return fl.binop(ir.Or, value{op: lo, t: ul}, value{op: hi, t: ul}, ul)
}

// binop128 is binop for the 128-bit type t; n places its diagnostics.
func (fl *fnLowerer) binop128(n cc.Node, op ir.ALU, a, b value, t cc.Type) value {
	ul := fl.l.u.AST.ULong
	u := func(o ir.Operand) value { return value{op: o, t: ul} }
	alo, ahi := fl.halves(a)
	if op == ir.Lsh || op == ir.Rsh || op == ir.Arsh {
		if !b.op.IsImm {
			fl.l.errorf(n, "shifting a 128-bit integer by a variable amount is not supported (BPF registers are 64 bits)")
			return a
		}
		lo, hi := shift128(fl, op, u(alo), u(ahi), b.op.Imm&127)
		return fl.make128(lo.op, hi.op, t)
	}
	blo, bhi := fl.halves(b)
	switch op {
	case ir.And, ir.Or, ir.Xor:
		return fl.make128(fl.binop(op, u(alo), u(blo), ul).op, fl.binop(op, u(ahi), u(bhi), ul).op, t)
	case ir.Add, ir.Sub:
		lo := fl.binop(op, u(alo), u(blo), ul)
		// The carry out of the low half (a borrow for a subtraction).
		carry := fl.materialize(func(yes, no *ir.Block) {
			if op == ir.Add {
				fl.branch(ir.Ult, lo.op, alo, false, yes, no)
			} else {
				fl.branch(ir.Ult, alo, blo, false, yes, no)
			}
		}, ul)
		hi := fl.binop(op, fl.binop(op, u(ahi), u(bhi), ul), carry, ul)
		return fl.make128(lo.op, hi.op, t)
	}
	fl.l.errorf(n, "128-bit %s is not supported (BPF registers are 64 bits)", aluName(op))
	return a
}

// shift128 shifts the halves lo, hi by k (0..127).
func shift128(fl *fnLowerer, op ir.ALU, lo, hi value, k int64) (value, value) {
	ul := lo.t
	imm := func(v int64) value { return value{op: ir.Imm(v), t: ul} }
	sh := func(op ir.ALU, v value, k int64) value { return fl.binop(op, v, imm(k), ul) }
	switch {
	case k == 0:
		return lo, hi
	case op == ir.Lsh && k < 64:
		return sh(ir.Lsh, lo, k), fl.binop(ir.Or, sh(ir.Lsh, hi, k), sh(ir.Rsh, lo, 64-k), ul)
	case op == ir.Lsh:
		return imm(0), sh(ir.Lsh, lo, k-64)
	case k < 64:
		return fl.binop(ir.Or, sh(ir.Rsh, lo, k), sh(ir.Lsh, hi, 64-k), ul), sh(op, hi, k)
	case op == ir.Rsh:
		return sh(ir.Rsh, hi, k-64), imm(0)
	default: // Arsh
		return sh(ir.Arsh, hi, k-64), sh(ir.Arsh, hi, 63)
	}
}

// compare128 branches on a c b for 128-bit values (c already signed for
// a signed type): equality on both halves at once, an order on the high
// halves, or the low ones (unsigned) when the high ones are equal.
func (fl *fnLowerer) compare128(c ir.Cond, a, b value, yes, no *ir.Block) {
	ul := fl.l.u.AST.ULong
	alo, ahi := fl.halves(a)
	blo, bhi := fl.halves(b)
	if c == ir.Eq || c == ir.Ne {
		x := fl.binop(ir.Or, fl.binop(ir.Xor, value{op: alo, t: ul}, value{op: blo, t: ul}, ul),
			fl.binop(ir.Xor, value{op: ahi, t: ul}, value{op: bhi, t: ul}, ul), ul)
		fl.branch(c, ir.R(fl.toReg(x)), ir.Imm(0), false, yes, no)
		return
	}
	high, low := fl.f.NewBlock(), fl.f.NewBlock()
	fl.branch(ir.Ne, ahi, bhi, false, high, low)
	fl.b = high
	fl.branch(c, ahi, bhi, false, yes, no)
	fl.b = low
	fl.branch(unsignedCond(c), alo, blo, false, yes, no)
}

// unsignedCond is c comparing unsigned.
func unsignedCond(c ir.Cond) ir.Cond {
	switch c {
	case ir.Slt:
		return ir.Ult
	case ir.Sgt:
		return ir.Ugt
	case ir.Sle:
		return ir.Ule
	case ir.Sge:
		return ir.Uge
	}
	return c
}

func aluName(op ir.ALU) string {
	switch op {
	case ir.Mul:
		return "multiplication"
	case ir.UDiv, ir.SDiv:
		return "division"
	case ir.UMod, ir.SMod:
		return "remainder"
	}
	return fmt.Sprintf("operation %v", op)
}
