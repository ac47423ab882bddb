// Package randgen generates random, UB-free programs in the C subset BPF
// supports (a small Csmith), together with the values C semantics say they
// compute. tests/randdiff_test.go compiles them with bpfcc and clang-19 and
// compares what the two objects store in their output map.
//
// Every generated program is checked by an interpreter (interp.go) that
// models C's integer promotions and conversions for the BPF target (LP64,
// signed char) and panics on undefined behaviour; statements that would
// execute undefined behaviour are regenerated in a "safe" form (unsigned
// arithmetic, guarded division, masked shift counts).
package randgen

import "fmt"

// Type is an integer type. Bits is the width (1 for _Bool, a bit-field's
// width for bit-field members).
type Type struct {
	Name   string
	Bits   int
	Signed bool
	Bool   bool
}

var (
	tChar   = Type{Name: "char", Bits: 8, Signed: true}
	tSChar  = Type{Name: "signed char", Bits: 8, Signed: true}
	tUChar  = Type{Name: "unsigned char", Bits: 8}
	tShort  = Type{Name: "short", Bits: 16, Signed: true}
	tUShort = Type{Name: "unsigned short", Bits: 16}
	tInt    = Type{Name: "int", Bits: 32, Signed: true}
	tUInt   = Type{Name: "unsigned int", Bits: 32}
	tLong   = Type{Name: "long", Bits: 64, Signed: true}
	tULong  = Type{Name: "unsigned long", Bits: 64}
	tLLong  = Type{Name: "long long", Bits: 64, Signed: true}
	tULLong = Type{Name: "unsigned long long", Bits: 64}
	tBool   = Type{Name: "_Bool", Bits: 1, Bool: true}
	tU8     = Type{Name: "__u8", Bits: 8}
	tS8     = Type{Name: "__s8", Bits: 8, Signed: true}
	tU16    = Type{Name: "__u16", Bits: 16}
	tS16    = Type{Name: "__s16", Bits: 16, Signed: true}
	tU32    = Type{Name: "__u32", Bits: 32}
	tS32    = Type{Name: "__s32", Bits: 32, Signed: true}
	tU64    = Type{Name: "__u64", Bits: 64}
	tS64    = Type{Name: "__s64", Bits: 64, Signed: true}
	// Enums: E0 has a negative enumerator, so its type is int; E1 has none,
	// so (as with GCC and clang) it is compatible with unsigned int.
	tEnumS = Type{Name: "enum E0", Bits: 32, Signed: true}
	tEnumU = Type{Name: "enum E1", Bits: 32}
)

var scalarTypes = []Type{tChar, tSChar, tUChar, tShort, tUShort, tInt, tUInt, tLong, tULong,
	tLLong, tULLong, tBool, tU8, tS8, tU16, tS16, tU32, tS32, tU64, tS64, tEnumS, tEnumU}

// conv converts v (any canonical value) to t: truncation and sign or zero
// extension, or comparison with zero for _Bool. Values are kept canonical:
// the 64-bit two's complement (signed) or zero-extended (unsigned) encoding
// of the mathematical value.
func (t Type) conv(v uint64) uint64 {
	if t.Bool {
		if v != 0 {
			return 1
		}
		return 0
	}
	if t.Bits >= 64 {
		return v
	}
	m := uint64(1)<<t.Bits - 1
	v &= m
	if t.Signed && v>>(t.Bits-1)&1 == 1 {
		v |= ^m
	}
	return v
}

func (t Type) min() uint64 {
	if !t.Signed {
		return 0
	}
	return ^uint64(0) << (t.Bits - 1)
}

func (t Type) max() uint64 {
	if t.Bool {
		return 1
	}
	if t.Signed {
		return 1<<(t.Bits-1) - 1
	}
	if t.Bits == 64 {
		return ^uint64(0)
	}
	return 1<<t.Bits - 1
}

// promote applies the integer promotions. Bit-fields narrower than int
// promote to int (all their values fit).
func promote(t Type) Type {
	switch {
	case t.Bool || t.Bits < 32:
		return tInt
	case t.Bits == 32 && t.Signed:
		return tInt
	case t.Bits == 32:
		return tUInt
	case t.Signed:
		return tLong
	}
	return tULong
}

// arith applies the usual arithmetic conversions.
func arith(a, b Type) Type {
	a, b = promote(a), promote(b)
	if a.Bits != b.Bits {
		if a.Bits > b.Bits {
			return a
		}
		return b
	}
	if !a.Signed {
		return a
	}
	return b
}

func unsignedOf(t Type) Type {
	if t.Bits == 64 {
		return tULong
	}
	return tUInt
}

// constText prints v as a C constant of type t (one of the promoted types,
// or a narrower type through a cast).
func constText(t Type, v uint64) string {
	switch t {
	case tInt:
		s := int32(v)
		switch {
		case s == -1<<31:
			return "(-2147483647 - 1)"
		case s < 0:
			return fmt.Sprintf("(-%d)", -s)
		}
		return fmt.Sprintf("%d", s)
	case tUInt:
		if v > 0xffff {
			return fmt.Sprintf("0x%xu", uint32(v))
		}
		return fmt.Sprintf("%du", uint32(v))
	case tLong:
		s := int64(v)
		switch {
		case s == -1<<63:
			return "(-9223372036854775807L - 1)"
		case s < 0:
			return fmt.Sprintf("(-%dL)", -s)
		}
		return fmt.Sprintf("%dL", s)
	case tULong:
		if v > 0xffff {
			return fmt.Sprintf("0x%xUL", v)
		}
		return fmt.Sprintf("%dUL", v)
	}
	p := promote(t)
	return fmt.Sprintf("((%s)%s)", t.Name, constText(p, v))
}
