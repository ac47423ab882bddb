package codegen

import "github.com/bpfcc/bpfcc/ir"

// evalALU computes a op b with eBPF semantics (division by zero gives 0,
// modulo by zero leaves the dividend, shift counts are masked), so folding
// never changes what the program would have computed at run time.
func evalALU(op ir.ALU, w32 bool, a, b int64) int64 {
	if w32 {
		x, y := uint32(a), uint32(b)
		var r uint32
		switch op {
		case ir.Add:
			r = x + y
		case ir.Sub:
			r = x - y
		case ir.Mul:
			r = x * y
		case ir.UDiv:
			if y != 0 {
				r = x / y
			}
		case ir.UMod:
			r = x
			if y != 0 {
				r = x % y
			}
		case ir.SDiv:
			if y != 0 {
				r = uint32(sdiv32(int32(x), int32(y)))
			}
		case ir.SMod:
			r = x
			if y != 0 {
				r = uint32(smod32(int32(x), int32(y)))
			}
		case ir.Or:
			r = x | y
		case ir.And:
			r = x & y
		case ir.Xor:
			r = x ^ y
		case ir.Lsh:
			r = x << (y & 31)
		case ir.Rsh:
			r = x >> (y & 31)
		case ir.Arsh:
			r = uint32(int32(x) >> (y & 31))
		}
		return int64(r)
	}
	x, y := uint64(a), uint64(b)
	var r uint64
	switch op {
	case ir.Add:
		r = x + y
	case ir.Sub:
		r = x - y
	case ir.Mul:
		r = x * y
	case ir.UDiv:
		if y != 0 {
			r = x / y
		}
	case ir.UMod:
		r = x
		if y != 0 {
			r = x % y
		}
	case ir.SDiv:
		if y != 0 {
			r = uint64(sdiv64(int64(x), int64(y)))
		}
	case ir.SMod:
		r = x
		if y != 0 {
			r = uint64(smod64(int64(x), int64(y)))
		}
	case ir.Or:
		r = x | y
	case ir.And:
		r = x & y
	case ir.Xor:
		r = x ^ y
	case ir.Lsh:
		r = x << (y & 63)
	case ir.Rsh:
		r = x >> (y & 63)
	case ir.Arsh:
		r = uint64(int64(x) >> (y & 63))
	}
	return int64(r)
}

// Go's / and % panic on nothing but zero and wrap on MinInt/-1, as eBPF does.
func sdiv32(a, b int32) int32 { return a / b }
func smod32(a, b int32) int32 { return a % b }
func sdiv64(a, b int64) int64 { return a / b }
func smod64(a, b int64) int64 { return a % b }

// evalCond decides a comparison of two constants.
func evalCond(c ir.Cond, w32 bool, a, b int64) bool {
	ua, ub := uint64(a), uint64(b)
	sa, sb := a, b
	if w32 {
		ua, ub = uint64(uint32(a)), uint64(uint32(b))
		sa, sb = int64(int32(a)), int64(int32(b))
	}
	switch c {
	case ir.Eq:
		return ua == ub
	case ir.Ne:
		return ua != ub
	case ir.Ugt:
		return ua > ub
	case ir.Uge:
		return ua >= ub
	case ir.Ult:
		return ua < ub
	case ir.Ule:
		return ua <= ub
	case ir.Sgt:
		return sa > sb
	case ir.Sge:
		return sa >= sb
	case ir.Slt:
		return sa < sb
	case ir.Sle:
		return sa <= sb
	case ir.Set:
		return ua&ub != 0
	}
	return false
}

// evalExt extends the low bits of v.
func evalExt(v int64, bits int, signed bool) int64 {
	switch {
	case signed && bits == 8:
		return int64(int8(v))
	case signed && bits == 16:
		return int64(int16(v))
	case signed && bits == 32:
		return int64(int32(v))
	case bits == 8:
		return int64(uint8(v))
	case bits == 16:
		return int64(uint16(v))
	case bits == 32:
		return int64(uint32(v))
	}
	return v
}

// evalBswap swaps the bytes of the low bits of v, zeroing the rest.
func evalBswap(v int64, bits int) int64 {
	u := uint64(v)
	var r uint64
	for i := 0; i < bits/8; i++ {
		r = r<<8 | (u>>(8*i))&0xff
	}
	return int64(r)
}

// mirror gives the condition that holds for (b, a) when c holds for (a, b).
func mirror(c ir.Cond) ir.Cond {
	switch c {
	case ir.Ugt:
		return ir.Ult
	case ir.Uge:
		return ir.Ule
	case ir.Ult:
		return ir.Ugt
	case ir.Ule:
		return ir.Uge
	case ir.Sgt:
		return ir.Slt
	case ir.Sge:
		return ir.Sle
	case ir.Slt:
		return ir.Sgt
	case ir.Sle:
		return ir.Sge
	}
	return c
}

// invert gives the negated condition; ok is false for Set, which has none.
func invert(c ir.Cond) (ir.Cond, bool) {
	switch c {
	case ir.Eq:
		return ir.Ne, true
	case ir.Ne:
		return ir.Eq, true
	case ir.Ugt:
		return ir.Ule, true
	case ir.Uge:
		return ir.Ult, true
	case ir.Ult:
		return ir.Uge, true
	case ir.Ule:
		return ir.Ugt, true
	case ir.Sgt:
		return ir.Sle, true
	case ir.Sge:
		return ir.Slt, true
	case ir.Slt:
		return ir.Sge, true
	case ir.Sle:
		return ir.Sgt, true
	}
	return c, false
}

func commutative(op ir.ALU) bool {
	switch op {
	case ir.Add, ir.Mul, ir.Or, ir.And, ir.Xor:
		return true
	}
	return false
}

func fitsInt32(v int64) bool { return v == int64(int32(v)) }
func fitsInt16(v int64) bool { return v == int64(int16(v)) }
