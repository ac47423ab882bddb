package dwarfvars

import (
	"debug/dwarf"
	"errors"
	"strings"
)

// The name index: subprograms, globals and types by name (and C++
// qualified name), built once per binary.

// dwarfFuncsNamed returns DIE offsets of subprograms with that DW_AT_name.
func (b *Binary) dwarfFuncsNamed(name string) ([]dwarf.Offset, error) {
	if err := b.indexNames(); err != nil {
		return nil, err
	}
	return b.names[name], nil
}

// indexNames indexes the subprogram, variable and type names of all CUs:
// top-level DIEs and, for C++, those inside namespaces and classes, by
// their qualified names (ns::f, C::m) and, when qualified, also by their
// own names. Out-of-line definitions that name their declaration through
// DW_AT_specification (methods, clang's namespaced functions) get the
// declaration's names.
func (b *Binary) indexNames() error {
	b.mu.Lock()
	done := b.names != nil
	b.mu.Unlock()
	if done {
		return nil
	}
	names := map[string][]dwarf.Offset{}
	globals := map[string][]dwarf.Offset{}
	types := map[string][]typeDef{}
	qual := map[dwarf.Offset]string{} // declarations inside namespaces and classes
	type pending struct {
		off, spec dwarf.Offset
		global    bool
	}
	var specs []pending
	quals := map[dwarf.Offset]string{}
	addName := func(m map[string][]dwarf.Offset, q string, off dwarf.Offset) {
		// Every suffix of ns::C::f names it: ns::C::f, C::f and f.
		m[q] = append(m[q], off)
		if strings.Contains(q, "::") {
			quals[off] = q
		}
		for i := 0; i+2 < len(q); i++ {
			if q[i] == ':' && q[i+1] == ':' {
				m[q[i+2:]] = append(m[q[i+2:]], off)
				i++
			}
		}
	}
	r := b.dw.Reader()
	var stack []string // the qualified prefix of each open DIE's children
	for {
		e, err := r.Next()
		if err != nil {
			return malformed("DIE index", err)
		}
		if e == nil {
			break
		}
		if e.Tag == 0 {
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
			continue
		}
		prefix := ""
		if len(stack) > 0 {
			prefix = stack[len(stack)-1]
		}
		name, _ := e.Val(dwarf.AttrName).(string)
		descend := ""
		switch e.Tag {
		case dwarf.TagCompileUnit, dwarf.TagPartialUnit:
			stack = stack[:0]
			if e.Children {
				stack = append(stack, "")
			}
			continue
		case dwarf.TagNamespace:
			descend = prefix
			if name != "" {
				descend = prefix + name + "::"
			}
		case dwarf.TagSubprogram:
			switch {
			case len(stack) > 1 && e.Val(dwarf.AttrDeclaration) == true:
				// A method or namespace function declared here and
				// defined elsewhere (DW_AT_specification).
				qual[e.Offset] = prefix + name
			case name != "":
				addName(names, prefix+name, e.Offset)
			default:
				if sp, ok := e.Val(dwarf.AttrSpecification).(dwarf.Offset); ok {
					specs = append(specs, pending{e.Offset, sp, false})
				}
			}
		case dwarf.TagVariable:
			if e.Val(dwarf.AttrLocation) == nil {
				if len(stack) > 1 && name != "" {
					qual[e.Offset] = prefix + name
				}
				break
			}
			if name != "" && len(stack) == 1 {
				globals[name] = append(globals[name], e.Offset)
			} else if name != "" {
				addName(globals, prefix+name, e.Offset)
			} else if sp, ok := e.Val(dwarf.AttrSpecification).(dwarf.Offset); ok {
				specs = append(specs, pending{e.Offset, sp, true})
			} else if o, ok := e.Val(dwarf.AttrAbstractOrigin).(dwarf.Offset); ok {
				// gcc -flto: the link-time unit's definition of a
				// global declared in an early-debug unit.
				specs = append(specs, pending{e.Offset, o, true})
			}
		case dwarf.TagStructType, dwarf.TagClassType, dwarf.TagUnionType, dwarf.TagEnumerationType:
			if name == "" {
				break
			}
			decl := e.Val(dwarf.AttrDeclaration) == true
			types[name] = append(types[name], typeDef{off: e.Offset, qual: prefix + name, decl: decl, tag: e.Tag})
			if e.Children && e.Tag != dwarf.TagEnumerationType {
				descend = prefix + name + "::"
			}
		}
		if e.Children {
			if descend != "" || e.Tag == dwarf.TagNamespace {
				stack = append(stack, descend)
			} else {
				r.SkipChildren()
			}
		}
	}
	for _, p := range specs {
		// A C declaration at file scope has its own name; an LTO
		// definition may reach it through two links (abstract origin,
		// then specification).
		q := ""
		for hop, spec := 0, p.spec; hop < 4 && q == "" && spec != 0; hop++ {
			var ok bool
			if q, ok = qual[spec]; ok {
				break
			}
			se, err := b.entryAt(spec)
			if err != nil {
				break
			}
			q, _ = se.Val(dwarf.AttrName).(string)
			next, ok := se.Val(dwarf.AttrSpecification).(dwarf.Offset)
			if !ok {
				next, _ = se.Val(dwarf.AttrAbstractOrigin).(dwarf.Offset)
			}
			spec = next
		}
		if q == "" {
			continue
		}
		if p.global {
			addName(globals, q, p.off)
		} else {
			addName(names, q, p.off)
		}
	}
	b.mu.Lock()
	b.names, b.globals, b.typeDefs, b.quals = names, globals, types, quals
	b.mu.Unlock()
	return nil
}

func (b *Binary) entryAt(off dwarf.Offset) (*dwarf.Entry, error) {
	r := b.dw.Reader()
	r.Seek(off)
	e, err := r.Next()
	if err != nil {
		return nil, err
	}
	if e == nil {
		return nil, errors.New("no entry")
	}
	return e, nil
}
