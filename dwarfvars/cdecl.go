package dwarfvars

import (
	"debug/dwarf"
	"fmt"
	"sort"
	"strings"
)

// CTypesOptions choose the types Binary.CTypes declares.
type CTypesOptions struct {
	// Roots name the types to define: "struct X", "union X", "enum X", or
	// a bare name (a struct, union or enum tag, or a typedef). Nil: every
	// named type of the binary.
	Roots []string
	// Mentioned, when non-nil, bounds what pointers reach: a struct or
	// union reached only through a pointer member is defined when the
	// member's name is in Mentioned, and only declared (struct X;)
	// otherwise. Nil defines everything the roots reach.
	Mentioned map[string]bool
	// Reserved are tags the program defines itself: the binary's types of
	// those names are emitted renamed NAME___target.
	Reserved map[string]bool
	// ReservedTypedefs are typedef names the program declares itself: the
	// binary's typedefs of those names are emitted renamed NAME___target.
	ReservedTypedefs map[string]bool
	// Strict makes a root that names no type an error (bpfcc --types);
	// otherwise such roots are ignored (identifiers of a program).
	Strict bool
}

// CTypes returns C declarations of the binary's types selected by o, laid
// out as its DWARF says: members at their DWARF offsets (explicit padding,
// __attribute__((packed)) where the natural layout would differ), sizes
// checked by _Static_assert so that a compiler laying them out otherwise
// refuses the program instead of reading wrong offsets. Floating-point
// members become unsigned integers of their size (BPF has no floating
// point; the bits stay readable), function pointers void *, and typedefs
// of the C library's kind (_x, x_t) their underlying types, so that the
// declarations do not collide with system headers a program includes.
func (b *Binary) CTypes(o CTypesOptions) (text string, err error) {
	defer recoverInto(&err, "C types")
	idx, err := b.cTypeIndex()
	if err != nil {
		return "", err
	}
	g := newCGen(b, o, idx)
	roots, named := o.Roots, true
	if roots == nil {
		roots, named = idx.allNames(), false
	}
	var missing []string
	for _, r := range roots {
		if !g.root(r, named && o.Strict) && named {
			missing = append(missing, r)
		}
	}
	if o.Strict && len(missing) > 0 {
		return "", &TypeNotFoundError{Binary: b.DebugPath, Names: missing, Similar: idx.similar(missing)}
	}
	g.reachAll()
	return g.emit(), nil
}

// TypeNotFoundError says that CTypes was asked for types the binary does
// not have.
type TypeNotFoundError struct {
	Binary string
	Names  []string
	// Similar are the binary's type names containing one of Names
	// (case-insensitive), a few at most.
	Similar []string
}

func (e *TypeNotFoundError) Error() string {
	s := fmt.Sprintf("%s has no struct, union, enum or typedef named %s", e.Binary, strings.Join(quoteAll(e.Names), ", "))
	if len(e.Similar) > 0 {
		s += "; similar: " + strings.Join(e.Similar, ", ")
	}
	return s
}

// Is makes errors.Is(err, ErrNotFound) work.
func (e *TypeNotFoundError) Is(t error) bool { return t == ErrNotFound }

func (idx *cTypeIndex) similar(names []string) []string {
	var out []string
	for _, n := range idx.allNames() {
		for _, want := range names {
			_, w, _ := strings.Cut(want, " ")
			if w == "" {
				w = want
			}
			if len(out) < 8 && strings.Contains(strings.ToLower(n), strings.ToLower(strings.TrimSpace(w))) {
				out = append(out, n)
				break
			}
		}
	}
	return out
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}

// cTypeIndex lists the named types declared at compile-unit level.
type cTypeIndex struct {
	tags     map[string][]dwarf.Offset // struct, class, union and enum
	typedefs map[string][]dwarf.Offset
	// qual holds the qualified names of C++ types nested in namespaces
	// and classes.
	qual map[dwarf.Offset]string
}

func (idx *cTypeIndex) allNames() []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range []map[string][]dwarf.Offset{idx.tags, idx.typedefs} {
		for n := range m {
			if !seen[n] {
				seen[n] = true
				out = append(out, n)
			}
		}
	}
	sort.Strings(out)
	return out
}

func (b *Binary) cTypeIndex() (*cTypeIndex, error) {
	idx := &cTypeIndex{tags: map[string][]dwarf.Offset{}, typedefs: map[string][]dwarf.Offset{}, qual: map[dwarf.Offset]string{}}
	r := b.dw.Reader()
	// C++: types inside namespaces and classes are indexed by their
	// qualified name (geo::Point), as C names it (geo__Point) and by
	// their own name; prefix holds the qualifier of each open DIE whose
	// children are read.
	var prefix []string
	cxx := false
	for {
		e, err := r.Next()
		if err != nil {
			return nil, malformed("type index", err)
		}
		if e == nil {
			return idx, nil
		}
		if e.Tag == 0 {
			if len(prefix) > 0 {
				prefix = prefix[:len(prefix)-1]
			}
			continue
		}
		if e.Tag == dwarf.TagCompileUnit || e.Tag == dwarf.TagPartialUnit {
			l, _ := e.Val(dwarf.AttrLanguage).(int64)
			cxx, prefix = l == 0x04 || l == 0x1a || l == 0x21 || l == 0x2a || l == 0x2b, prefix[:0]
			continue
		}
		name, _ := e.Val(dwarf.AttrName).(string)
		outer := ""
		if len(prefix) > 0 {
			outer = prefix[len(prefix)-1]
		}
		var m map[string][]dwarf.Offset
		switch e.Tag {
		case dwarf.TagStructType, dwarf.TagClassType, dwarf.TagUnionType, dwarf.TagEnumerationType:
			m = idx.tags
		case dwarf.TagTypedef:
			m = idx.typedefs
		}
		if m != nil && name != "" {
			idx.add(m, name, e.Offset)
			if outer != "" {
				q := outer + name
				idx.qual[e.Offset] = q
				idx.add(m, q, e.Offset)
			}
		}
		descend := cxx && name != "" && e.Children &&
			(e.Tag == dwarf.TagNamespace || e.Tag == dwarf.TagStructType || e.Tag == dwarf.TagClassType || e.Tag == dwarf.TagUnionType)
		switch {
		case descend:
			prefix = append(prefix, outer+name+"::")
		case e.Children:
			r.SkipChildren()
		}
	}
}

// add indexes a type under name and, when C spells it otherwise, under
// its C identifier (Go's main.T is struct main_T, C++'s geo::Point
// struct geo__Point).
func (idx *cTypeIndex) add(m map[string][]dwarf.Offset, name string, off dwarf.Offset) {
	m[name] = append(m[name], off)
	if c := cIdent(name); c != name {
		m[c] = append(m[c], off)
	}
}

// qualified returns the qualified name of a C++ type inside a namespace or
// class (geo::Point for Point), or name itself.
func (g *cgen) qualified(t dwarf.Type, name string) string {
	if q, ok := g.qualOf[t]; ok {
		return q
	}
	q := name
	for _, off := range g.idx.tags[name] {
		if n, ok := g.idx.qual[off]; ok && g.typeAt(off) == t {
			q = n
			break
		}
	}
	if q == name {
		for _, off := range g.idx.typedefs[name] {
			if n, ok := g.idx.qual[off]; ok && g.typeAt(off) == t {
				q = n
				break
			}
		}
	}
	g.qualOf[t] = q
	return q
}

// cgen selects and prints declarations. Types are dwarf.Type values
// (cached per DIE by debug/dwarf); the copies each compile unit has of
// one type are merged by their layout, and different types of one name
// get distinct names (NAME___2).
type cgen struct {
	b   *Binary
	o   CTypesOptions
	idx *cTypeIndex

	tagOf    map[*dwarf.StructType]string // "struct X"
	bySig    map[string]string
	used     map[string]bool
	defs     map[string]*dwarf.StructType // C tag -> the definition printed
	define   map[string]bool              // tags to define
	declared map[string]bool              // tags named anywhere (forward declared)
	work     []string

	tdOf    map[*dwarf.TypedefType]string
	tdSig   map[string]string // name + underlying spelling -> C name
	tdUsed  map[string]bool
	enumOf  map[*dwarf.EnumType]string // "" when printed as an integer
	enumSig map[string]string
	enumers map[string]bool
	anon    map[dwarf.Type]bool

	qualOf map[dwarf.Type]string

	layouts map[*dwarf.StructType]*cLayout
	state   map[string]int // emission: 1 in progress, 2 done
	enums   []string
	body    []string
	asserts []string
}

func newCGen(b *Binary, o CTypesOptions, idx *cTypeIndex) *cgen {
	return &cgen{b: b, o: o, idx: idx,
		tagOf: map[*dwarf.StructType]string{}, bySig: map[string]string{}, used: map[string]bool{},
		defs: map[string]*dwarf.StructType{}, define: map[string]bool{}, declared: map[string]bool{},
		tdOf: map[*dwarf.TypedefType]string{}, tdSig: map[string]string{}, tdUsed: map[string]bool{},
		enumOf: map[*dwarf.EnumType]string{}, enumSig: map[string]string{}, enumers: map[string]bool{},
		anon: map[dwarf.Type]bool{}, qualOf: map[dwarf.Type]string{}, layouts: map[*dwarf.StructType]*cLayout{}, state: map[string]int{}}
}

func (g *cgen) typeAt(off dwarf.Offset) dwarf.Type {
	t, err := g.b.dw.Type(off)
	if err != nil {
		return nil
	}
	return t
}

// root selects the types of one name; false when there is none. A
// typedef of the C library's kind is declared only when asked for by name
// (explicit).
func (g *cgen) root(r string, explicit bool) bool {
	kw, name, ok := strings.Cut(strings.TrimSpace(r), " ")
	if !ok {
		kw, name = "", kw
	}
	name = strings.TrimSpace(name)
	if g.o.Reserved[name] {
		return false
	}
	found := false
	for _, off := range g.idx.tags[name] {
		switch t := g.typeAt(off).(type) {
		case *dwarf.StructType:
			if kw == "" || kw == cKind(t) {
				found = true
				g.reach(t, false, name)
			}
		case *dwarf.EnumType:
			if kw == "" || kw == "enum" {
				found = true
				g.enumName(t)
			}
		}
	}
	if kw == "" {
		for _, off := range g.idx.typedefs[name] {
			if t, ok := g.typeAt(off).(*dwarf.TypedefType); ok && (explicit && !strings.HasPrefix(t.Name, "__builtin") || cTypedefKept(t)) && !isFuncType(t) {
				found = true
				g.typedefName(t)
				g.reach(t.Type, false, name)
			}
		}
	}
	return found
}

func cKind(t *dwarf.StructType) string {
	if t.Kind == "union" {
		return "union"
	}
	return "struct"
}

// complete returns the definition of a struct its unit only declares, as
// gdb does: the first unit defining it (the same struct everywhere in C).
func (g *cgen) complete(t *dwarf.StructType) *dwarf.StructType {
	if !t.Incomplete || t.StructName == "" {
		return t
	}
	for _, off := range g.idx.tags[g.qualified(t, t.StructName)] {
		if d, ok := g.typeAt(off).(*dwarf.StructType); ok && !d.Incomplete && d.Kind == t.Kind {
			return d
		}
	}
	return t
}

// tag names a named struct or union ("struct X"), merging the copies of
// one layout.
func (g *cgen) tag(t *dwarf.StructType) string {
	t = g.complete(t)
	if n, ok := g.tagOf[t]; ok {
		return n
	}
	sig := structSig(t)
	if n, ok := g.bySig[sig]; ok {
		g.tagOf[t] = n
		return n
	}
	kw := cKind(t)
	base := cIdent(g.qualified(t, t.StructName))
	if g.o.Reserved[base] {
		base += "___target"
	}
	name := base
	for i := 2; g.used[kw+" "+name]; i++ {
		name = fmt.Sprintf("%s___%d", base, i)
	}
	full := kw + " " + name
	g.used[full], g.bySig[sig], g.tagOf[t], g.defs[full] = true, full, full, t
	return full
}

// structSig identifies a layout: kind, name, size and members.
func structSig(t *dwarf.StructType) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s %s %d %v:", t.Kind, t.StructName, t.ByteSize, t.Incomplete)
	for _, f := range t.Field {
		fmt.Fprintf(&sb, " %s@%d.%d.%d:%d/%s", f.Name, f.ByteOffset, f.BitOffset, f.DataBitOffset, f.BitSize, typeSize(f.Type))
	}
	return sb.String()
}

func typeSize(t dwarf.Type) string {
	if t == nil {
		return "void"
	}
	return fmt.Sprint(t.Size())
}

// cIdent makes a DWARF name (a C++ template's, say) a C identifier.
func cIdent(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !isWordByte(c) {
			b[i] = '_'
		}
	}
	if len(b) == 0 || b[0] >= '0' && b[0] <= '9' {
		return "_" + string(b)
	}
	return string(b)
}

func isWordByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// cTypedefKept reports whether a typedef is declared by name: not one of
// the C library's (_x, x_t), which a program's headers may declare too,
// and not a function type (function pointers are void *).
func cTypedefKept(t *dwarf.TypedefType) bool {
	return !strings.HasPrefix(t.Name, "_") && !strings.HasSuffix(t.Name, "_t") && !isFuncType(t)
}

func isFuncType(t dwarf.Type) bool {
	for {
		switch u := t.(type) {
		case *dwarf.TypedefType:
			t = u.Type
		case *dwarf.QualType:
			t = u.Type
		case *dwarf.FuncType:
			return true
		default:
			return false
		}
	}
}

// typedefName names a kept typedef, merging same-named ones of the same
// underlying type.
func (g *cgen) typedefName(t *dwarf.TypedefType) string {
	if n, ok := g.tdOf[t]; ok {
		return n
	}
	g.tdOf[t] = "" // a typedef reaching itself through a pointer
	sig := t.Name + "=" + g.decl(t.Type, "")
	if n, ok := g.tdSig[sig]; ok {
		g.tdOf[t] = n
		return n
	}
	base := cIdent(g.qualified(t, t.Name))
	if g.o.ReservedTypedefs[base] {
		base += "___target"
	}
	name := base
	for i := 2; g.tdUsed[name]; i++ {
		name = fmt.Sprintf("%s___%d", base, i)
	}
	g.tdUsed[name], g.tdSig[sig], g.tdOf[t] = true, name, name
	return name
}

// enumName names a named 4-byte enum, or returns "" to print it as an
// integer: another enum of the binary already uses one of its
// enumerator names (C would refuse the redeclaration).
func (g *cgen) enumName(t *dwarf.EnumType) string {
	if n, ok := g.enumOf[t]; ok {
		return n
	}
	if t.EnumName == "" || t.ByteSize != 4 {
		g.enumOf[t] = ""
		return ""
	}
	var sb strings.Builder
	sb.WriteString(t.EnumName)
	for _, v := range t.Val {
		fmt.Fprintf(&sb, " %s=%d", v.Name, v.Val)
	}
	if n, ok := g.enumSig[sb.String()]; ok {
		g.enumOf[t] = n
		return n
	}
	for _, v := range t.Val {
		if g.enumers[v.Name] {
			g.enumOf[t] = ""
			return ""
		}
	}
	base := cIdent(g.qualified(t, t.EnumName))
	if g.o.Reserved[base] {
		base += "___target"
	}
	name := base
	for i := 2; g.used["enum "+name]; i++ {
		name = fmt.Sprintf("%s___%d", base, i)
	}
	full := "enum " + name
	g.used[full], g.enumSig[sb.String()], g.enumOf[t] = true, full, full
	var lines []string
	for _, v := range t.Val {
		g.enumers[v.Name] = true
		lines = append(lines, fmt.Sprintf("\t%s = %d,", v.Name, v.Val))
	}
	g.enums = append(g.enums, full+" {\n"+strings.Join(lines, "\n")+"\n};\n")
	return full
}

// reach selects what a type needs: by value every named struct it holds
// is defined; through a pointer member it is defined when the member's
// name is mentioned (or always, without Mentioned), declared otherwise.
func (g *cgen) reach(t dwarf.Type, viaPtr bool, member string) {
	switch t := t.(type) {
	case *dwarf.TypedefType:
		if cTypedefKept(t) {
			g.typedefName(t)
		}
		g.reach(t.Type, viaPtr, member)
	case *dwarf.PtrType:
		if t.Type != nil && !isFuncType(t.Type) {
			// A pointer to an array needs the elements complete (C).
			_, arr := t.Type.(*dwarf.ArrayType)
			g.reach(t.Type, !arr, member)
		}
	case *dwarf.QualType:
		g.reach(t.Type, viaPtr, member)
	case *dwarf.ArrayType:
		g.reach(t.Type, viaPtr, member)
	case *dwarf.EnumType:
		g.enumName(t)
	case *dwarf.StructType:
		if t.StructName == "" {
			if g.anon[t] {
				return
			}
			g.anon[t] = true
			for _, f := range t.Field {
				g.reach(f.Type, false, f.Name)
			}
			return
		}
		tag := g.tag(t)
		g.declared[tag] = true
		if !viaPtr || g.o.Mentioned == nil || g.o.Mentioned[member] {
			if !g.define[tag] && !g.defs[tag].Incomplete {
				g.define[tag] = true
				g.work = append(g.work, tag)
			}
		}
	}
}

func (g *cgen) reachAll() {
	for len(g.work) > 0 {
		tag := g.work[len(g.work)-1]
		g.work = g.work[:len(g.work)-1]
		for _, f := range g.defs[tag].Field {
			g.reach(f.Type, false, f.Name)
		}
	}
}
