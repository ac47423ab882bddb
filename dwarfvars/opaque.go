package dwarfvars

import (
	"debug/dwarf"
	"fmt"
	"path/filepath"
	"strings"
)

// typeDef is a named struct, class, union or enum DIE found by indexNames.
type typeDef struct {
	off dwarf.Offset
	// qual is the qualified name (ns::C::S for C++, the tag in C).
	qual string
	decl bool
	tag  dwarf.Tag
}

// OpaqueTypeError says that a struct only declared where the probe is
// (struct lua_State; in its compile unit) could not be completed from the
// binary's other units: no unit defines it, or several define it with
// different layouts.
type OpaqueTypeError struct {
	Type string
	// Unit is the compile unit holding the declaration.
	Unit string
	// Units are the units defining it with different layouts (empty when
	// no unit defines it).
	Units   []string
	Layouts []string
}

func (e *OpaqueTypeError) Error() string {
	if len(e.Units) == 0 {
		return fmt.Sprintf("%s is only declared in %s and no compile unit of the binary defines it, so its members are unknown", e.Type, e.Unit)
	}
	var ds []string
	for i, u := range e.Units {
		ds = append(ds, fmt.Sprintf("%s (%s)", u, e.Layouts[i]))
	}
	return fmt.Sprintf("%s is only declared in %s, and compile units define it with different layouts: %s; cannot tell which one applies",
		e.Type, e.Unit, strings.Join(ds, " and "))
}

// Is makes an OpaqueTypeError match ErrNotFound.
func (e *OpaqueTypeError) Is(t error) bool { return t == ErrNotFound }

// complete fills in a struct, class or union that its unit only declares
// with the definition of the same (qualified) name from the binary, as gdb
// does: the unit's own definition if it has one, else the one layout all
// defining units agree on. Complete types are left alone.
func (b *Binary) complete(t *Type) error {
	if t == nil || !t.opaque {
		return nil
	}
	if err := b.indexNames(); err != nil {
		return err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if !t.opaque {
		return nil
	}
	all := b.typeDefs[t.tag]
	// The declaration's qualified name: the declarations of that name in
	// its unit (C++ ns::S and other::S are different types).
	quals := map[string]bool{}
	for _, d := range all {
		if d.decl && b.inUnit(d.off, t.unit) && d.tag != dwarf.TagEnumerationType {
			quals[d.qual] = true
		}
	}
	var defs []typeDef
	for _, d := range all {
		if d.decl || d.tag == dwarf.TagEnumerationType || (t.Kind == KindUnion) != (d.tag == dwarf.TagUnionType) {
			continue
		}
		if len(quals) > 0 && !quals[d.qual] {
			continue
		}
		defs = append(defs, d)
	}
	if len(defs) == 0 {
		return &OpaqueTypeError{Type: t.Spelling, Unit: b.unitName(t.unit)}
	}
	pick := -1
	for i, d := range defs {
		if b.inUnit(d.off, t.unit) {
			pick = i
			break
		}
	}
	conv := func(d typeDef) (*Type, error) {
		dt, err := b.dw.Type(d.off)
		if err != nil {
			return nil, malformed("type DIE", err)
		}
		u, _ := b.unitOf(d.off)
		save := b.types.unit
		b.types.unit = u.start
		defer func() { b.types.unit = save }()
		return b.types.conv(dt), nil
	}
	var def *Type
	if pick >= 0 {
		var err error
		if def, err = conv(defs[pick]); err != nil {
			return err
		}
	} else {
		// No definition of its own: every defining unit must agree. The
		// layouts are compared from the DIEs (size, member names and
		// offsets), so that only the definition used is converted.
		var units, layouts []string
		seen := map[string]bool{}
		for _, d := range defs {
			l := b.dieLayout(d.off)
			if !seen[l] {
				seen[l] = true
				u, _ := b.unitOf(d.off)
				units, layouts = append(units, b.unitName(u.start)), append(layouts, l)
			}
		}
		if len(units) > 1 {
			return &OpaqueTypeError{Type: t.Spelling, Unit: b.unitName(t.unit), Units: units, Layouts: layouts}
		}
		var err error
		if def, err = conv(defs[0]); err != nil {
			return err
		}
	}
	if def.opaque {
		return &OpaqueTypeError{Type: t.Spelling, Unit: b.unitName(t.unit)}
	}
	t.Members, t.Size, t.opaque = def.Members, def.Size, false
	return nil
}

// dieLayout summarises a struct DIE's size and members (names, offsets,
// bit-field places) for comparing definitions.
func (b *Binary) dieLayout(off dwarf.Offset) string {
	r := b.dw.Reader()
	r.Seek(off)
	e, err := r.Next()
	if err != nil || e == nil {
		return "?"
	}
	size, _ := e.Val(dwarf.AttrByteSize).(int64)
	var ms []string
	for e.Children {
		m, err := r.Next()
		if err != nil || m == nil || m.Tag == 0 {
			break
		}
		if m.Tag == dwarf.TagMember || m.Tag == dwarf.TagInheritance {
			name, _ := m.Val(dwarf.AttrName).(string)
			loc, _ := m.Val(dwarf.AttrDataMemberLoc).(int64)
			d := fmt.Sprintf("%s@%d", name, loc)
			if bs, ok := m.Val(dwarf.AttrBitSize).(int64); ok {
				bo, _ := m.Val(dwarf.AttrDataBitOffset).(int64)
				if o, ok := m.Val(dwarf.AttrBitOffset).(int64); ok {
					bo = -o - 1
				}
				d += fmt.Sprintf(":%d.%d", bo, bs)
			}
			ms = append(ms, d)
		}
		if m.Children {
			r.SkipChildren()
		}
	}
	return fmt.Sprintf("%d bytes: %s", size, strings.Join(ms, " "))
}

// inUnit reports whether a DIE offset is in the unit starting at unit.
func (b *Binary) inUnit(off, unit dwarf.Offset) bool {
	u, ok := b.unitOf(off)
	return ok && u.start == unit
}

// unitName is a unit's DW_AT_name (its base name), for messages.
func (b *Binary) unitName(unit dwarf.Offset) string {
	for _, u := range b.units {
		if u.start == unit {
			if e, err := b.entryAt(u.die); err == nil {
				if n, ok := e.Val(dwarf.AttrName).(string); ok {
					return filepath.Base(n)
				}
			}
		}
	}
	return fmt.Sprintf("the unit at %#x", unit)
}
