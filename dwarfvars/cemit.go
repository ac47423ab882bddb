package dwarfvars

import (
	"debug/dwarf"
	"fmt"
	"sort"
	"strings"
)

// This file prints what cdecl.go selects: declarators, struct bodies laid
// out at their DWARF offsets, and the declarations in an order C accepts.

var ucharType = &dwarf.UcharType{BasicType: dwarf.BasicType{CommonType: dwarf.CommonType{ByteSize: 1, Name: "unsigned char"}}}

// bytesOf is how a type without a BPF equivalent (long double, __int128,
// _Complex) is printed: its bytes.
func bytesOf(n int64) dwarf.Type { return &dwarf.ArrayType{Type: ucharType, Count: n} }

func intName(size int64, signed bool) string {
	n := map[int64]string{1: "char", 2: "short", 4: "int", 8: "long"}[size]
	switch {
	case size == 1 && signed:
		return "signed char"
	case signed:
		return n
	}
	return "unsigned " + n
}

// asBPF maps a base type to what the declarations use for it: the type
// itself, an integer of its size, or its bytes (then ok is false).
func asBPF(t dwarf.Type) (name string, ok bool) {
	s := t.Size()
	switch t := t.(type) {
	case *dwarf.BoolType:
		return "_Bool", s == 1
	case *dwarf.CharType:
		if t.Name == "char" {
			return "char", s == 1
		}
		return "signed char", s == 1
	case *dwarf.UcharType:
		return "unsigned char", s == 1
	case *dwarf.IntType, *dwarf.UintType, *dwarf.FloatType, *dwarf.EnumType, *dwarf.AddrType:
		switch s {
		case 1, 2, 4, 8:
			_, signed := t.(*dwarf.IntType)
			if e, ok := t.(*dwarf.EnumType); ok {
				signed = enumSigned(e)
			}
			return intName(s, signed), true
		}
	}
	return "", false
}

func enumSigned(e *dwarf.EnumType) bool {
	for _, v := range e.Val {
		if v.Val < 0 {
			return true
		}
	}
	return false
}

// decl prints a declaration of inner (a name, possibly with * and []) of
// type t. Anonymous structs and unions are printed inline, their bodies
// indented one tab relative to the declaration.
func (g *cgen) decl(t dwarf.Type, inner string) string {
	sp := func(s string) string {
		if inner == "" {
			return s
		}
		if strings.HasSuffix(s, "*") {
			return s + inner
		}
		return s + " " + inner
	}
	switch t := t.(type) {
	case nil, *dwarf.VoidType:
		return sp("void")
	case *dwarf.TypedefType:
		n, ok := g.tdOf[t]
		if !ok && cTypedefKept(t) {
			n = g.typedefName(t)
		}
		if n != "" {
			return sp(n)
		}
		return g.decl(t.Type, inner)
	case *dwarf.QualType:
		return g.decl(t.Type, inner)
	case *dwarf.PtrType:
		if isFuncType(t.Type) {
			return sp("void *")
		}
		return g.decl(t.Type, "*"+inner)
	case *dwarf.ArrayType:
		n := max(t.Count, 0)
		if strings.HasPrefix(inner, "*") {
			inner = "(" + inner + ")"
		}
		return g.decl(t.Type, fmt.Sprintf("%s[%d]", inner, n))
	case *dwarf.StructType:
		if t.StructName != "" {
			tag := g.tag(t)
			g.declared[tag] = true
			return sp(tag)
		}
		return sp(g.inlineBody(t))
	case *dwarf.EnumType:
		if n := g.enumName(t); n != "" {
			return sp(n)
		}
	}
	if n, ok := asBPF(t); ok {
		return sp(n)
	}
	if t.Size() > 0 {
		return g.decl(bytesOf(t.Size()), inner)
	}
	return sp("void")
}

// align is the alignment of t as the declarations print it.
func (g *cgen) align(t dwarf.Type) int64 {
	switch t := t.(type) {
	case nil, *dwarf.VoidType:
		return 1
	case *dwarf.TypedefType:
		return g.align(t.Type)
	case *dwarf.QualType:
		return g.align(t.Type)
	case *dwarf.PtrType:
		return 8
	case *dwarf.ArrayType:
		return g.align(t.Type)
	case *dwarf.StructType:
		return g.layout(g.complete(t)).align
	}
	if _, ok := asBPF(t); ok {
		return t.Size()
	}
	return 1
}

// bitFieldType is the integer type a bit-field is declared with.
func bitFieldType(t dwarf.Type) (dwarf.Type, string) {
	for {
		switch u := t.(type) {
		case *dwarf.TypedefType:
			t = u.Type
			continue
		case *dwarf.QualType:
			t = u.Type
			continue
		}
		n, _ := asBPF(t)
		if n == "" {
			n = "unsigned int"
		}
		return t, n
	}
}

// cLayout is a struct or union body as printed.
type cLayout struct {
	lines  []string
	align  int64
	packed bool
	blob   bool
	// offsets are the named, non-bit-field members' offsets, for the
	// _Static_asserts.
	offsets []memberOffset
}

type memberOffset struct {
	name string
	off  int64
}

func (g *cgen) layout(t *dwarf.StructType) *cLayout {
	if l := g.layouts[t]; l != nil {
		return l
	}
	g.layouts[t] = blob(t) // a struct cannot hold itself by value
	l := g.tryLayout(t, false)
	if l == nil {
		l = g.tryLayout(t, true)
	}
	if l == nil {
		l = blob(t)
	}
	g.layouts[t] = l
	return l
}

// blob is the body of a struct whose layout C cannot express: its bytes.
func blob(t *dwarf.StructType) *cLayout {
	return &cLayout{align: 1, blob: true, lines: []string{fmt.Sprintf("unsigned char __bpfcc_raw[%d]; /* layout not expressible in C */", max(t.ByteSize, 0))}}
}

// tryLayout prints the members in DWARF order at their DWARF offsets,
// adding padding where the natural layout would place a member earlier;
// nil when a member would land later than DWARF says (packed is then
// tried) or the layout cannot be written.
func (g *cgen) tryLayout(t *dwarf.StructType, packed bool) *cLayout {
	l := &cLayout{align: 1, packed: packed}
	union := t.Kind == "union"
	var cur, maxEnd int64 // bits
	pads := 0
	pad := func(n int64) {
		l.lines = append(l.lines, fmt.Sprintf("unsigned char __pad%d[%d];", pads, n))
		pads++
	}
	names := memberNames(t)
	for fi, f := range t.Field {
		name := names[fi]
		if union {
			cur = 0
		}
		if f.BitSize > 0 {
			bt, tname := bitFieldType(f.Type)
			unit := bt.Size() * 8
			start, bit := bitFieldPlace(f, int(bt.Size()))
			target := int64(start)*8 + int64(bit)
			if target < cur || unit <= 0 {
				return nil
			}
			for cur < target {
				k := min(target-cur, 8-cur%8)
				l.lines = append(l.lines, fmt.Sprintf("unsigned char : %d;", k))
				cur += k
			}
			if !packed && cur/unit != (cur+f.BitSize-1)/unit {
				return nil
			}
			l.lines = append(l.lines, fmt.Sprintf("%s %s : %d;", tname, name, f.BitSize))
			cur += f.BitSize
			if !packed {
				l.align = max(l.align, bt.Size())
			}
			maxEnd = max(maxEnd, cur)
			continue
		}
		a := int64(1)
		if !packed {
			a = g.align(f.Type)
		}
		curB := (cur + 7) / 8
		nat := (curB + a - 1) / a * a
		if nat > f.ByteOffset {
			return nil
		}
		if nat < f.ByteOffset {
			pad(f.ByteOffset - curB)
		}
		l.lines = append(l.lines, g.member(f, name))
		if name != "" {
			l.offsets = append(l.offsets, memberOffset{name, f.ByteOffset})
		}
		cur = (f.ByteOffset + max(f.Type.Size(), 0)) * 8
		l.align = max(l.align, a)
		maxEnd = max(maxEnd, cur)
	}
	endB := (maxEnd + 7) / 8
	size := (endB + l.align - 1) / l.align * l.align
	switch {
	case size > t.ByteSize:
		return nil
	case size < t.ByteSize && union:
		l.lines = append(l.lines, fmt.Sprintf("unsigned char __pad%d[%d];", pads, t.ByteSize))
	case size < t.ByteSize:
		pad(t.ByteSize - endB)
	}
	if t.ByteSize%l.align != 0 {
		return nil
	}
	return l
}

// member prints one member, noting the floating-point type a member of
// integer type holds.
func (g *cgen) member(f *dwarf.StructField, name string) string {
	s := g.decl(f.Type, name) + ";"
	if ft, ok := baseOf(f.Type).(*dwarf.FloatType); ok {
		s += " /* " + ft.Name + " */"
	}
	return s
}

func baseOf(t dwarf.Type) dwarf.Type {
	for {
		switch u := t.(type) {
		case *dwarf.TypedefType:
			t = u.Type
		case *dwarf.QualType:
			t = u.Type
		case *dwarf.ArrayType:
			t = u.Type
		default:
			return t
		}
	}
}

// body prints a layout's members between braces.
func body(l *cLayout) string {
	var sb strings.Builder
	sb.WriteString("{\n")
	for _, m := range l.lines {
		for _, line := range strings.Split(m, "\n") {
			sb.WriteString("\t" + line + "\n")
		}
	}
	sb.WriteString("}")
	return sb.String()
}

func packedAttr(l *cLayout) string {
	if l.packed {
		return " __attribute__((packed))"
	}
	return ""
}

func (g *cgen) inlineBody(t *dwarf.StructType) string {
	l := g.layout(t)
	return cKind(t) + packedAttr(l) + " " + body(l)
}

// deps emits the declarations t needs before a declaration using it:
// kept typedefs it names and, by value, the structs it holds.
func (g *cgen) deps(t dwarf.Type, viaPtr bool) {
	switch t := t.(type) {
	case *dwarf.TypedefType:
		if n, ok := g.tdOf[t]; ok && n != "" || cTypedefKept(t) {
			g.emitTypedef(t)
			if !viaPtr {
				g.deps(t.Type, false)
			}
			return
		}
		g.deps(t.Type, viaPtr)
	case *dwarf.PtrType:
		if !isFuncType(t.Type) {
			_, arr := t.Type.(*dwarf.ArrayType)
			g.deps(t.Type, !arr)
		}
	case *dwarf.QualType:
		g.deps(t.Type, viaPtr)
	case *dwarf.ArrayType:
		g.deps(t.Type, viaPtr)
	case *dwarf.StructType:
		if t.StructName != "" {
			if !viaPtr {
				g.emitDef(g.tag(t))
			}
			return
		}
		key := fmt.Sprintf("anon %p", t)
		if g.state[key] != 0 {
			return
		}
		g.state[key] = 1
		for _, f := range t.Field {
			g.deps(f.Type, false)
		}
	}
}

// emitDef prints a struct or union definition after what it needs.
func (g *cgen) emitDef(tag string) {
	if g.state[tag] != 0 || !g.define[tag] {
		return
	}
	g.state[tag] = 1
	t := g.defs[tag]
	l := g.layout(t)
	if !l.blob {
		for _, f := range t.Field {
			g.deps(f.Type, false)
		}
	}
	kw, name, _ := strings.Cut(tag, " ")
	g.body = append(g.body, kw+packedAttr(l)+" "+name+" "+body(l)+";\n")
	g.asserts = append(g.asserts, fmt.Sprintf("_Static_assert(sizeof(%s) == %d, \"%s is %d bytes in the traced binary\");", tag, t.ByteSize, tag, t.ByteSize))
	for _, m := range l.offsets {
		g.asserts = append(g.asserts, fmt.Sprintf("_Static_assert(__builtin_offsetof(%s, %s) == %d, \"%s.%s is at offset %d in the traced binary\");", tag, m.name, m.off, tag, m.name, m.off))
	}
	g.state[tag] = 2
}

func (g *cgen) emitTypedef(t *dwarf.TypedefType) {
	name := g.typedefName(t)
	key := "typedef " + name
	if name == "" || g.state[key] != 0 {
		return
	}
	g.state[key] = 1
	under := t.Type
	for {
		q, ok := under.(*dwarf.QualType)
		if !ok {
			break
		}
		under = q.Type
	}
	if st, ok := under.(*dwarf.StructType); !ok || st.StructName == "" {
		g.deps(t.Type, false)
	}
	g.body = append(g.body, "typedef "+g.decl(t.Type, name)+";\n")
	g.state[key] = 2
}

// emit prints the selected declarations: forward declarations, enums,
// typedefs and definitions in dependency order, then the layout checks.
func (g *cgen) emit() string {
	for _, tag := range sortedKeys(g.define) {
		g.emitDef(tag)
	}
	for {
		// Typedefs named along the way (and roots) not yet printed.
		var left []*dwarf.TypedefType
		for t, n := range g.tdOf {
			if n != "" && g.state["typedef "+n] == 0 {
				left = append(left, t)
			}
		}
		if len(left) == 0 {
			break
		}
		sort.Slice(left, func(i, j int) bool { return g.tdOf[left[i]] < g.tdOf[left[j]] })
		for _, t := range left {
			g.emitTypedef(t)
		}
	}
	var sb strings.Builder
	for _, tag := range sortedKeys(g.declared) {
		sb.WriteString(tag + ";\n")
	}
	sb.WriteString("\n")
	for _, e := range g.enums {
		sb.WriteString(e + "\n")
	}
	for _, d := range g.body {
		sb.WriteString(d + "\n")
	}
	for _, a := range g.asserts {
		sb.WriteString(a + "\n")
	}
	return sb.String()
}

func sortedKeys(m map[string]bool) []string {
	var out []string
	for k, v := range m {
		if v {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// cKeywords are the words a member cannot be called in C (Go's and
// C++'s members may be).
var cKeywords = map[string]bool{}

func init() {
	for _, k := range strings.Fields(`auto break case char const continue default do double else enum extern
		float for goto if inline int long register restrict return short signed sizeof static struct
		switch typedef union unsigned void volatile while _Alignas _Alignof _Atomic _Bool _Complex
		_Generic _Imaginary _Noreturn _Static_assert _Thread_local asm typeof`) {
		cKeywords[k] = true
	}
}

// memberNames are the members' names as printed: C identifiers, not
// keywords (word_), and unique within the struct (Go's blank fields are
// all "_"): NAME___2 for the second.
func memberNames(t *dwarf.StructType) []string {
	used := map[string]bool{}
	out := make([]string, len(t.Field))
	for i, f := range t.Field {
		if f.Name == "" {
			continue
		}
		n := cIdent(f.Name)
		if cKeywords[n] {
			n += "_"
		}
		base := n
		for k := 2; used[n]; k++ {
			n = fmt.Sprintf("%s___%d", base, k)
		}
		used[n] = true
		out[i] = n
	}
	return out
}
