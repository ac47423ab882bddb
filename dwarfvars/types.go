package dwarfvars

import (
	"debug/dwarf"
	"fmt"
	"strings"
)

// Kind classifies a Type after typedefs and qualifiers are stripped.
type Kind uint8

// Type kinds.
const (
	KindVoid Kind = iota
	KindBase      // integer, character, boolean or floating point
	KindPointer
	KindStruct
	KindUnion
	KindArray
	KindEnum
	KindFunc
)

var kindNames = [...]string{"void", "base", "pointer", "struct", "union", "array", "enum", "func"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// Type is a traced program's type as its DWARF describes it. Typedefs and
// qualifiers are resolved for Kind, Size and Signed but kept in Spelling. The
// graph may be cyclic (struct node { struct node *next; }).
type Type struct {
	Kind Kind
	// Name is the tag or base name ("point", "int"); for a typedef the
	// typedef name; empty for anonymous and derived types.
	Name string
	// Spelling is the C spelling of the type: "struct point *", "int [4]".
	Spelling string
	// Size is the size in bytes (0 for void and functions).
	Size int
	// Signed is set for signed integers, signed chars and enums with a
	// negative enumerator or a signed underlying type.
	Signed bool
	// Float is set for floating-point base types.
	Float bool
	// Elem is the pointed-to type (KindPointer) or element type (KindArray).
	Elem *Type
	// Count is the number of elements of an array (-1 if unknown).
	Count int
	// Members lists struct and union members in declaration order.
	Members []Member
	// Enumerators lists the values of an enum.
	Enumerators []Enumerator
	// Ref marks a C++ reference (a KindPointer): binding expressions see
	// through it to the object it refers to, as C++ does.
	Ref bool

	// tag is the struct, union or class name, kept through typedefs; unit
	// is the start of the compile unit the type was read from; opaque is
	// set while the type is a declaration (DW_AT_declaration) whose
	// definition has not been looked up in the other units (complete).
	tag    string
	unit   dwarf.Offset
	opaque bool
}

// Member is a struct or union member.
type Member struct {
	Name   string
	Offset int // byte offset in the containing struct
	Type   *Type
	// BitSize and BitOffset describe a bit-field: BitOffset is counted from
	// the least significant bit of the little-endian storage unit starting
	// at Offset. BitSize is 0 for ordinary members.
	BitSize, BitOffset int
}

// Enumerator is one named value of an enum.
type Enumerator struct {
	Name  string
	Value int64
}

// Short is the fixed-width spelling used in listings: s32, u64, ptr, etc.
func (t *Type) Short() string {
	if t == nil {
		return "?"
	}
	switch t.Kind {
	case KindBase, KindEnum:
		if t.Float {
			return fmt.Sprintf("f%d", t.Size*8)
		}
		if t.Signed {
			return fmt.Sprintf("s%d", t.Size*8)
		}
		return fmt.Sprintf("u%d", t.Size*8)
	case KindPointer:
		return "u64"
	}
	return t.Spelling
}

// Scalar reports whether values of t fit a 64-bit register (base, enum and
// pointer types).
func (t *Type) Scalar() bool {
	return t != nil && (t.Kind == KindBase || t.Kind == KindEnum || t.Kind == KindPointer) && t.Size <= 8
}

// Member finds a member by name, looking through anonymous struct and union
// members as C does; the returned offset is relative to t.
func (t *Type) Member(name string) (Member, bool) {
	for _, m := range t.Members {
		if m.Name == name {
			return m, true
		}
	}
	for _, m := range t.Members {
		if m.Name == "" && m.Type != nil && (m.Type.Kind == KindStruct || m.Type.Kind == KindUnion) {
			if in, ok := m.Type.Member(name); ok {
				in.Offset += m.Offset
				return in, true
			}
		}
	}
	return Member{}, false
}

func (t *Type) String() string { return t.Spelling }

// typeConv converts debug/dwarf types, memoising by DIE offset so cyclic
// types convert to cyclic graphs.
type typeConv struct {
	seen map[dwarf.Type]*Type
	// unit is the start of the compile unit being converted.
	unit dwarf.Offset
}

func newTypeConv() *typeConv { return &typeConv{seen: map[dwarf.Type]*Type{}} }

func (c *typeConv) conv(dt dwarf.Type) *Type {
	if dt == nil {
		return &Type{Kind: KindVoid, Name: "void", Spelling: "void"}
	}
	if t, ok := c.seen[dt]; ok {
		return t
	}
	t := &Type{Count: -1}
	c.seen[dt] = t
	switch x := dt.(type) {
	case *dwarf.TypedefType:
		in := c.conv(x.Type)
		*t = *in
		t.Name, t.Spelling = x.Name, x.Name
	case *dwarf.QualType:
		in := c.conv(x.Type)
		*t = *in
		// A qualifier on an array qualifies its elements (C11
		// 6.7.3p9): `const char [5]` once, not `const const char [5]`.
		if in.Kind != KindArray || !strings.HasPrefix(in.Spelling, x.Qual+" ") {
			t.Spelling = x.Qual + " " + in.Spelling
		}
	case *dwarf.PtrType:
		t.Kind, t.Size = KindPointer, 8
		if x.ByteSize > 0 {
			t.Size = int(x.ByteSize)
		}
		t.Elem = c.conv(x.Type)
		t.Spelling = ptrSpelling(t.Elem)
	case *dwarf.StructType:
		t.Kind = KindStruct
		if x.Kind == "union" {
			t.Kind = KindUnion
		}
		t.Name, t.Size = x.StructName, int(max(x.ByteSize, 0))
		t.tag, t.unit, t.opaque = x.StructName, c.unit, x.Incomplete && x.StructName != ""
		t.Spelling = strings.TrimSpace(x.Kind + " " + x.StructName)
		if x.StructName == "" {
			t.Spelling = x.Kind + " {...}"
		}
		for _, f := range x.Field {
			m := Member{Name: f.Name, Offset: int(f.ByteOffset), Type: c.conv(f.Type), BitSize: int(f.BitSize)}
			if f.BitSize > 0 {
				m.Offset, m.BitOffset = bitFieldPlace(f, m.Type.Size)
			}
			t.Members = append(t.Members, m)
		}
	case *dwarf.ArrayType:
		t.Kind = KindArray
		t.Elem = c.conv(x.Type)
		t.Count = int(x.Count)
		if x.Count >= 0 && t.Elem.Size > 0 {
			t.Size = int(x.Count) * t.Elem.Size
		}
		t.Spelling = fmt.Sprintf("%s [%d]", t.Elem.Spelling, max(x.Count, 0))
	case *dwarf.EnumType:
		t.Kind, t.Name, t.Size = KindEnum, x.EnumName, int(x.ByteSize)
		t.Spelling = strings.TrimSpace("enum " + x.EnumName)
		for _, v := range x.Val {
			t.Enumerators = append(t.Enumerators, Enumerator{v.Name, v.Val})
			if v.Val < 0 {
				t.Signed = true
			}
		}
	case *dwarf.FuncType:
		t.Kind, t.Spelling = KindFunc, c.funcSpelling(x)
	case *dwarf.VoidType:
		t.Kind, t.Name, t.Spelling = KindVoid, "void", "void"
	case *dwarf.IntType, *dwarf.CharType:
		t.setBase(dt, true)
	case *dwarf.UintType, *dwarf.UcharType, *dwarf.BoolType:
		t.setBase(dt, false)
	case *dwarf.FloatType, *dwarf.ComplexType:
		t.setBase(dt, true)
		t.Float = true
	default:
		t.setBase(dt, false)
	}
	return t
}

func (t *Type) setBase(dt dwarf.Type, signed bool) {
	t.Kind, t.Signed = KindBase, signed
	t.Name, t.Spelling = dt.Common().Name, dt.Common().Name
	t.Size = int(max(dt.Size(), 0))
}

// ptrSpelling spells a pointer to elem: "struct point *", "int (*)(int)".
func ptrSpelling(elem *Type) string {
	if elem.Kind == KindFunc {
		if i := strings.Index(elem.Spelling, " ("); i >= 0 {
			return elem.Spelling[:i] + " (*)" + elem.Spelling[i+1:]
		}
	}
	if strings.HasSuffix(elem.Spelling, "*") {
		return elem.Spelling + "*"
	}
	return elem.Spelling + " *"
}

// bitFieldPlace returns the byte offset of a bit-field's storage unit and
// the bit offset within it (from the least significant bit, little endian).
func bitFieldPlace(f *dwarf.StructField, unit int) (int, int) {
	if unit <= 0 {
		unit = 4
	}
	bit := f.ByteOffset*8 + f.DataBitOffset
	if f.BitOffset != 0 || (f.ByteSize != 0 && f.DataBitOffset == 0) {
		// DWARF 2/3: BitOffset counts from the most significant bit of a
		// ByteSize-byte storage unit at ByteOffset.
		bs := f.ByteSize
		if bs == 0 {
			bs = int64(unit)
		}
		bit = f.ByteOffset*8 + bs*8 - f.BitOffset - f.BitSize
	}
	start := (bit / 8) &^ int64(unit-1)
	if bit+f.BitSize > (start+int64(unit))*8 {
		start = bit / 8
	}
	return int(start), int(bit - start*8)
}

// funcSpelling spells a function type in C: "int (int, char *)".
func (c *typeConv) funcSpelling(x *dwarf.FuncType) string {
	var ps []string
	for _, p := range x.ParamType {
		if _, ok := p.(*dwarf.DotDotDotType); ok {
			ps = append(ps, "...")
			continue
		}
		ps = append(ps, c.conv(p).Spelling)
	}
	if len(ps) == 0 {
		ps = []string{"void"}
	}
	return c.conv(x.ReturnType).Spelling + " (" + strings.Join(ps, ", ") + ")"
}
