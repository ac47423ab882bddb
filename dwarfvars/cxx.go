package dwarfvars

import (
	"debug/dwarf"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/go-delve/delve/pkg/dwarf/godwarf"
)

// C++ support: overloads picked by a parameter list, references, and
// members of base classes. Qualified names (ns::f, C::m) are indexed by
// indexNames.

// OverloadError says a C++ probe names several functions with different
// parameter lists: the probe must say which, as Class::method(long).
type OverloadError struct {
	Probe, Func string
	// Params is the parameter list the probe gave, when no overload has it.
	Params string
	// Candidates are the overloads, spelled as probes.
	Candidates []string
}

func (e *OverloadError) Error() string {
	if e.Params != "" {
		return fmt.Sprintf("probe %s: no function %s takes (%s); there is %s", e.Probe, e.Func, e.Params, strings.Join(e.Candidates, ", "))
	}
	return fmt.Sprintf("probe %s: %s is overloaded; say which: %s", e.Probe, e.Func, strings.Join(e.Candidates, ", "))
}

// Is makes errors.Is(err, ErrNotFound) work.
func (e *OverloadError) Is(t error) bool { return t == ErrNotFound }

// splitParams splits "Class::add(long)" into "Class::add" and "long".
func splitParams(fn string) (name, params string, has bool) {
	if !strings.HasSuffix(fn, ")") {
		return fn, "", false
	}
	depth := 0
	for i := len(fn) - 1; i >= 0; i-- {
		switch fn[i] {
		case ')':
			depth++
		case '(':
			if depth--; depth == 0 {
				if i > 0 && fn[i-1] == '.' {
					return fn, "", false // Go: pkg.(*T)
				}
				return fn[:i], normParams(fn[i+1 : len(fn)-1]), true
			}
		}
	}
	return fn, "", false
}

// cBaseNames maps gcc's base type names to the usual C++ spellings.
var cBaseNames = map[string]string{
	"long int": "long", "long unsigned int": "unsigned long", "short int": "short",
	"short unsigned int": "unsigned short", "long long int": "long long",
	"long long unsigned int": "unsigned long long", "unsigned int": "unsigned",
}

// normParams spells a parameter list for comparison: without blanks and
// keywords, one name per base type: "long int, const char *" ->
// "long,constchar*".
func normParams(s string) string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		p = strings.ReplaceAll(scopeRE().ReplaceAllString(cxxSpelling(p), ""), " ", "")
		if p == "void" && !strings.Contains(s, ",") {
			p = ""
		}
		out = append(out, p)
	}
	return strings.Join(out, ",")
}

// scopeRE matches the scopes of a qualified type name (geo:: of
// geo::Counter): DWARF spells types by their own names.
var scopeRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[A-Za-z_][A-Za-z_0-9]*::`) })

// rawParams is the parameter list of a probe's function as given.
func rawParams(fn string) string {
	if i := strings.LastIndexByte(fn, '('); i >= 0 && strings.HasSuffix(fn, ")") {
		return fn[i+1 : len(fn)-1]
	}
	return ""
}

// signature spells the parameter list of a subprogram DIE (without the
// artificial this) for messages: "const Counter &, long".
func (b *Binary) signature(off dwarf.Offset) string {
	t, err := godwarf.LoadTree(off, b.dw, 0)
	if err != nil {
		return ""
	}
	var ps []string
	for _, ch := range t.Children {
		if ch.Tag != dwarf.TagFormalParameter || ch.Val(dwarf.AttrArtificial) == true {
			continue
		}
		ps = append(ps, cxxSpelling(b.typeOf(ch).Spelling))
	}
	return strings.Join(ps, ", ")
}

// cxxSpelling spells a type as C++ does: no struct/class keyword, one
// name per base type ("long", not gcc's "long int").
func cxxSpelling(p string) string {
	p = strings.TrimSpace(p)
	for long, short := range cBaseNames {
		if p == long || strings.HasPrefix(p, long+" ") {
			p = short + p[len(long):]
		}
		p = strings.ReplaceAll(p, "const "+long, "const "+short)
	}
	for _, kw := range []string{"class ", "struct ", "union ", "enum "} {
		p = strings.ReplaceAll(p, kw, "")
	}
	return p
}

// isCXX reports whether a compile unit is C++ (DW_AT_language).
func isCXX(c *cuInfo) bool {
	l, _ := c.entry.Val(dwarf.AttrLanguage).(int64)
	switch l {
	case 0x04, 0x1a, 0x21, 0x2a, 0x2b: // C++, C++03, C++11, C++14 (and DWARF 6's C++17/20)
		return true
	}
	return false
}

// overloads filters a function's DWARF DIEs by a parameter list, or checks
// that they have one parameter list when the probe gives none. Only C++
// units have overloads: static C functions of one name in several units
// are several functions, not overloads.
func (b *Binary) overloads(p Probe, name, params string, has bool, offs []dwarf.Offset) ([]dwarf.Offset, error) {
	sigs := map[string][]dwarf.Offset{}
	shown := map[string]string{}
	cxx := false
	for _, o := range offs {
		if u, ok := b.unitOf(o); ok {
			if e, err := b.entryAt(u.die); err == nil {
				if c, err := b.cuFor(e); err == nil && isCXX(c) {
					cxx = true
				}
			}
		}
		s := b.signature(o)
		shown[normParams(s)] = s
		sigs[normParams(s)] = append(sigs[normParams(s)], o)
	}
	if !cxx || len(sigs) < 2 && !has {
		return offs, nil
	}
	var cands []string
	for s := range sigs {
		cands = append(cands, name+"("+shown[s]+")")
	}
	sort.Strings(cands)
	if has {
		if o, ok := sigs[params]; ok {
			return o, nil
		}
		return nil, &OverloadError{Probe: p.Spec, Func: name, Params: rawParams(p.Func), Candidates: cands}
	}
	return nil, &OverloadError{Probe: p.Spec, Func: name, Candidates: cands}
}

// refType converts a C++ reference type DIE (which debug/dwarf does not
// read) to a reference Type: a pointer that expressions see through.
func (b *Binary) refType(off dwarf.Offset) (*Type, bool) {
	e, err := b.entryAt(off)
	if err != nil || e.Tag != dwarf.TagReferenceType && e.Tag != dwarf.TagRvalueReferenceType {
		return nil, false
	}
	in, ok := e.Val(dwarf.AttrType).(dwarf.Offset)
	if !ok {
		return nil, false
	}
	elem := b.typeOf(typeRef(in))
	amp := " &"
	if e.Tag == dwarf.TagRvalueReferenceType {
		amp = " &&"
	}
	return &Type{Kind: KindPointer, Size: 8, Elem: elem, Spelling: elem.Spelling + amp, Count: -1, Ref: true}, true
}

// typeRef is an Entry with only a DW_AT_type, for typeOf.
type typeRef dwarf.Offset

func (r typeRef) Val(a dwarf.Attr) any {
	if a == dwarf.AttrType {
		return dwarf.Offset(r)
	}
	return nil
}

func (r typeRef) AttrField(a dwarf.Attr) *dwarf.Field { return nil }

// baseMember finds a member in the base classes of a C++ class
// (DW_TAG_inheritance, which debug/dwarf does not read); the offset is
// relative to t.
func (b *Binary) baseMember(t *Type, name string, depth int) (Member, bool) {
	if t.tag == "" || depth > 16 || b.indexNames() != nil {
		return Member{}, false
	}
	b.mu.Lock()
	var def dwarf.Offset
	for _, d := range b.typeDefs[t.tag] {
		if !d.decl && d.tag != dwarf.TagEnumerationType && (def == 0 || b.inUnit(d.off, t.unit)) {
			def = d.off
		}
	}
	b.mu.Unlock()
	if def == 0 {
		return Member{}, false
	}
	r := b.dw.Reader()
	r.Seek(def)
	if e, err := r.Next(); err != nil || e == nil || !e.Children {
		return Member{}, false
	}
	for {
		e, err := r.Next()
		if err != nil || e == nil || e.Tag == 0 {
			return Member{}, false
		}
		if e.Tag == dwarf.TagInheritance {
			toff, ok := e.Val(dwarf.AttrType).(dwarf.Offset)
			loc, _ := e.Val(dwarf.AttrDataMemberLoc).(int64)
			if ok {
				base := b.typeOf(typeRef(toff))
				if m, ok := base.Member(name); ok {
					m.Offset += int(loc)
					return m, true
				}
				if m, ok := b.baseMember(base, name, depth+1); ok {
					m.Offset += int(loc)
					return m, true
				}
			}
		}
		if e.Children {
			r.SkipChildren()
		}
	}
}

// simpleName is the DW_AT_name a probe's function has: "add" for
// "ns::C::add(long)".
func simpleName(fn string) string {
	fn, _, _ = splitParams(fn)
	if i := strings.LastIndex(fn, "::"); i >= 0 {
		return fn[i+2:]
	}
	return fn
}

// qualName is a C++ function's qualified name and parameter list
// (geo::Counter::add(long)), or its DWARF name when unknown.
func (b *Binary) qualName(ft *funcTree) string {
	if b.indexNames() != nil {
		return ft.name
	}
	off := ft.root.Offset
	for i := 0; i < 4; i++ {
		b.mu.Lock()
		q, ok := b.quals[off]
		b.mu.Unlock()
		if ok {
			return q + "(" + b.signature(off) + ")"
		}
		e, err := b.entryAt(off)
		if err != nil {
			break
		}
		o, ok := e.Val(dwarf.AttrAbstractOrigin).(dwarf.Offset)
		if !ok {
			if o, ok = e.Val(dwarf.AttrSpecification).(dwarf.Offset); !ok {
				break
			}
		}
		off = o
	}
	return ft.name
}
