package lower

import (
	"modernc.org/cc/v4"
)

// Facts about C types as lower needs them.

// isAggregate reports whether values of t live in memory and are handled by
// address (structs, unions, arrays, and __int128: see int128.go).
func isAggregate(t cc.Type) bool {
	switch t.Kind() {
	case cc.Struct, cc.Union, cc.Array, cc.Int128, cc.UInt128:
		return true
	}
	return false
}

func isPtr(t cc.Type) bool { return t.Kind() == cc.Ptr }

func isFloat(t cc.Type) bool {
	switch t.Kind() {
	case cc.Float, cc.Double, cc.LongDouble, cc.Float16, cc.Float32, cc.Float32x, cc.Float64, cc.Float64x, cc.Float128, cc.Float128x,
		cc.ComplexFloat, cc.ComplexDouble, cc.ComplexLongDouble, cc.Decimal32, cc.Decimal64, cc.Decimal128:
		return true
	}
	return false
}

// isSigned reports whether t is a signed integer type (enums with negative
// values included).
func isSigned(t cc.Type) bool {
	if t.Kind() == cc.Enum {
		if e, ok := t.(*cc.EnumType); ok {
			if unsignedEnum(e) {
				return false
			}
			return isSigned(e.UnderlyingType())
		}
	}
	return cc.IsSignedInteger(t)
}

// unsignedEnum reports an enum type without negative enumerators: clang
// and gcc give it an unsigned underlying type (its constants stay int).
func unsignedEnum(e *cc.EnumType) bool {
	return e.Min() >= 0 && e.Size() <= 4
}

// scalarSize is the size in bytes of a scalar type (pointers are 8).
func scalarSize(t cc.Type) int {
	if t.Kind() == cc.Ptr || t.Kind() == cc.Function {
		return 8
	}
	s := t.Size()
	if s <= 0 {
		return 8
	}
	return int(s)
}

// isScalar reports whether t is an integer, enum, bool or pointer.
func isScalar(t cc.Type) bool {
	switch t.Kind() {
	case cc.Ptr, cc.Enum, cc.Bool:
		return true
	}
	return cc.IsIntegerType(t)
}

// elemType returns the pointed-to or element type.
func elemType(t cc.Type) cc.Type {
	switch x := t.(type) {
	case *cc.PointerType:
		return x.Elem()
	case *cc.ArrayType:
		return x.Elem()
	}
	return nil
}

// elemSize is the size of what t points to; void and functions count as 1
// (GNU C pointer arithmetic).
func elemSize(t cc.Type) int64 {
	e := elemType(t)
	if e == nil || e.Kind() == cc.Void || e.Kind() == cc.Function {
		return 1
	}
	if s := e.Size(); s > 0 {
		return s
	}
	return 1
}

func align(t cc.Type) int {
	a := t.Align()
	if a <= 0 {
		return 1
	}
	return a
}

// typeSize returns t's size or 0 when unknown.
func typeSize(t cc.Type) int64 {
	s := t.Size()
	if s < 0 {
		return 0
	}
	return s
}

// truncate returns v as type t would hold it, sign- or zero-extended to
// 64 bits.
func truncate(v int64, t cc.Type) int64 {
	if t.Kind() == cc.Bool {
		if v != 0 {
			return 1
		}
		return 0
	}
	switch scalarSize(t) {
	case 1:
		if isSigned(t) {
			return int64(int8(v))
		}
		return int64(uint8(v))
	case 2:
		if isSigned(t) {
			return int64(int16(v))
		}
		return int64(uint16(v))
	case 4:
		if isSigned(t) {
			return int64(int32(v))
		}
		return int64(uint32(v))
	}
	return v
}

// typeName names t for diagnostics as C spells it, without a record's
// members: "struct big", "union u", "int *".
func typeName(t cc.Type) string {
	switch t.Kind() {
	case cc.Struct, cc.Union, cc.Enum:
		kw := map[cc.Kind]string{cc.Struct: "struct", cc.Union: "union", cc.Enum: "enum"}[t.Kind()]
		if td := t.Typedef(); td != nil && td.Name() != "" {
			return td.Name()
		}
		if r, ok := t.(interface{ Tag() cc.Token }); ok {
			if tag := r.Tag(); tag.SrcStr() != "" {
				return kw + " " + tag.SrcStr()
			}
		}
		return "anonymous " + kw
	}
	return t.String()
}

func fitsInt16(v int64) bool { return v == int64(int16(v)) }
