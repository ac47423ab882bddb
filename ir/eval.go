package ir

// EvalALU computes a op b with eBPF semantics (division by zero gives 0,
// modulo by zero leaves the dividend, shift counts are masked), so folding
// never changes what the program would have computed at run time.
func EvalALU(op ALU, w32 bool, a, b int64) int64 {
	if w32 {
		x, y := uint32(a), uint32(b)
		var r uint32
		switch op {
		case Add:
			r = x + y
		case Sub:
			r = x - y
		case Mul:
			r = x * y
		case UDiv:
			if y != 0 {
				r = x / y
			}
		case UMod:
			r = x
			if y != 0 {
				r = x % y
			}
		case SDiv:
			if y != 0 {
				r = uint32(sdiv32(int32(x), int32(y)))
			}
		case SMod:
			r = x
			if y != 0 {
				r = uint32(smod32(int32(x), int32(y)))
			}
		case Or:
			r = x | y
		case And:
			r = x & y
		case Xor:
			r = x ^ y
		case Lsh:
			r = x << (y & 31)
		case Rsh:
			r = x >> (y & 31)
		case Arsh:
			r = uint32(int32(x) >> (y & 31))
		}
		return int64(r)
	}
	x, y := uint64(a), uint64(b)
	var r uint64
	switch op {
	case Add:
		r = x + y
	case Sub:
		r = x - y
	case Mul:
		r = x * y
	case UDiv:
		if y != 0 {
			r = x / y
		}
	case UMod:
		r = x
		if y != 0 {
			r = x % y
		}
	case SDiv:
		if y != 0 {
			r = uint64(sdiv64(int64(x), int64(y)))
		}
	case SMod:
		r = x
		if y != 0 {
			r = uint64(smod64(int64(x), int64(y)))
		}
	case Or:
		r = x | y
	case And:
		r = x & y
	case Xor:
		r = x ^ y
	case Lsh:
		r = x << (y & 63)
	case Rsh:
		r = x >> (y & 63)
	case Arsh:
		r = uint64(int64(x) >> (y & 63))
	}
	return int64(r)
}

// Go's / and % panic on nothing but zero and wrap on MinInt/-1, as eBPF does.
func sdiv32(a, b int32) int32 { return a / b }
func smod32(a, b int32) int32 { return a % b }
func sdiv64(a, b int64) int64 { return a / b }
func smod64(a, b int64) int64 { return a % b }

// EvalCond decides a comparison of two constants.
func EvalCond(c Cond, w32 bool, a, b int64) bool {
	ua, ub := uint64(a), uint64(b)
	sa, sb := a, b
	if w32 {
		ua, ub = uint64(uint32(a)), uint64(uint32(b))
		sa, sb = int64(int32(a)), int64(int32(b))
	}
	switch c {
	case Eq:
		return ua == ub
	case Ne:
		return ua != ub
	case Ugt:
		return ua > ub
	case Uge:
		return ua >= ub
	case Ult:
		return ua < ub
	case Ule:
		return ua <= ub
	case Sgt:
		return sa > sb
	case Sge:
		return sa >= sb
	case Slt:
		return sa < sb
	case Sle:
		return sa <= sb
	case Set:
		return ua&ub != 0
	}
	return false
}

// EvalExt extends the low bits of v.
func EvalExt(v int64, bits int, signed bool) int64 {
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

// EvalBswap swaps the bytes of the low bits of v, zeroing the rest.
func EvalBswap(v int64, bits int) int64 {
	u := uint64(v)
	var r uint64
	for i := 0; i < bits/8; i++ {
		r = r<<8 | (u>>(8*i))&0xff
	}
	return int64(r)
}

// Mirror gives the condition that holds for (b, a) when c holds for (a, b).
func (c Cond) Mirror() Cond {
	switch c {
	case Ugt:
		return Ult
	case Uge:
		return Ule
	case Ult:
		return Ugt
	case Ule:
		return Uge
	case Sgt:
		return Slt
	case Sge:
		return Sle
	case Slt:
		return Sgt
	case Sle:
		return Sge
	}
	return c
}

// Signed gives the signed form of an unsigned ordering (Ult -> Slt, ...);
// other conditions are returned as they are.
func (c Cond) Signed() Cond {
	switch c {
	case Ult:
		return Slt
	case Ugt:
		return Sgt
	case Ule:
		return Sle
	case Uge:
		return Sge
	}
	return c
}

// Invert gives the negated condition; ok is false for Set, which has none.
func (c Cond) Invert() (Cond, bool) {
	switch c {
	case Eq:
		return Ne, true
	case Ne:
		return Eq, true
	case Ugt:
		return Ule, true
	case Uge:
		return Ult, true
	case Ult:
		return Uge, true
	case Ule:
		return Ugt, true
	case Sgt:
		return Sle, true
	case Sge:
		return Slt, true
	case Slt:
		return Sge, true
	case Sle:
		return Sgt, true
	}
	return c, false
}
