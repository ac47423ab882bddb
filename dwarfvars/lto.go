package dwarfvars

import (
	"debug/dwarf"
	"strings"

	"github.com/go-delve/delve/pkg/dwarf/godwarf"
)

// With gcc -flto the DWARF is split: the early-debug units (one per
// source file) hold the functions' declarations — names, parameters,
// types, but no code — and the link-time units (named "<artificial>",
// produced by "GNU GIMPLE") hold the code's DIEs, which refer to those
// declarations through a DW_AT_abstract_origin in another unit. Finding
// a function by name therefore has to follow origins across units too.

// crossHolder is a top-level DIE of a unit holding a DIE whose abstract
// origin is in another unit.
type crossHolder struct {
	unit unitHdr
	top  dwarf.Offset
}

// isLTOUnit recognises gcc's link-time units.
func isLTOUnit(cu *dwarf.Entry) bool {
	name, _ := cu.Val(dwarf.AttrName).(string)
	prod, _ := cu.Val(dwarf.AttrProducer).(string)
	return name == "<artificial>" || strings.HasPrefix(prod, "GNU GIMPLE")
}

// crossHolders returns the holders of DIEs whose abstract origin is off
// and lies in another unit; the index is built on first use from the
// link-time units only.
func (b *Binary) crossHolders(off dwarf.Offset) ([]crossHolder, error) {
	b.crossOnce.Do(func() { b.cross, b.crossErr = b.scanCrossOrigins() })
	return b.cross[off], b.crossErr
}

func (b *Binary) scanCrossOrigins() (map[dwarf.Offset][]crossHolder, error) {
	out := map[dwarf.Offset][]crossHolder{}
	r := b.dw.Reader()
	var u unitHdr
	depth, top := 0, dwarf.Offset(0)
	for {
		e, err := r.Next()
		if err != nil {
			return nil, malformed("DIEs", err)
		}
		if e == nil {
			return out, nil
		}
		if e.Tag == dwarf.TagCompileUnit || e.Tag == dwarf.TagPartialUnit {
			u, _ = b.unitOf(e.Offset)
			depth = 0
			if !isLTOUnit(e) {
				r.SkipChildren()
				continue
			}
			if e.Children {
				depth = 1
			}
			continue
		}
		if e.Tag == 0 {
			depth--
			continue
		}
		if depth == 1 {
			top = e.Offset
		}
		if o, ok := e.Val(dwarf.AttrAbstractOrigin).(dwarf.Offset); ok && (o < u.start || o >= u.end) {
			hs := out[o]
			if len(hs) == 0 || hs[len(hs)-1].top != top {
				out[o] = append(hs, crossHolder{u, top})
			}
		}
		if e.Children {
			depth++
		}
	}
}

// crossInstances adds the out-of-line and inlined instances of the
// subprogram at off that other units' DIEs hold (see above).
func (b *Binary) crossInstances(off dwarf.Offset, withInlined bool, addTree func(*funcTree), addInline func(instance)) error {
	hs, err := b.crossHolders(off)
	if err != nil {
		return err
	}
	for _, h := range hs {
		cuE, err := b.entryAt(h.unit.die)
		if err != nil {
			return malformed("compile unit", err)
		}
		c, err := b.cuFor(cuE)
		if err != nil {
			return err
		}
		if err := b.instancesIn(c, h.top, off, withInlined, addTree, addInline); err != nil {
			return err
		}
	}
	return nil
}

// srcUnit is the compile unit of a function's source: its own, or for
// code in a link-time unit, the early-debug unit its declaration (the
// node's abstract origin) is in.
func (b *Binary) srcUnit(cu *cuInfo, n *godwarf.Tree) *dwarf.Entry {
	if !isLTOUnit(cu.entry) {
		return cu.entry
	}
	if o := originOf(n); o != 0 {
		if u, ok := b.unitOf(o); ok {
			if e, err := b.entryAt(u.die); err == nil {
				return e
			}
		}
	}
	return cu.entry
}

// srcUnitName is srcUnit's DW_AT_name.
func (b *Binary) srcUnitName(cu *cuInfo, n *godwarf.Tree) string {
	name, _ := b.srcUnit(cu, n).Val(dwarf.AttrName).(string)
	return name
}
