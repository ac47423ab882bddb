package dwarfvars

import (
	"debug/dwarf"
	"path/filepath"
	"slices"
	"sort"

	"github.com/go-delve/delve/pkg/dwarf/godwarf"
)

// Where a named function's code is: its out-of-line copies and inlined
// copies, found through ELF symbols and DWARF names.

// instance is one place a function's code is: an out-of-line copy (tree) or
// an inlined copy (node inside tree).
type instance struct {
	tree   *funcTree
	node   *godwarf.Tree // the subprogram or inlined_subroutine
	inline bool
}

// instances finds the code of a named function: ELF symbols first, then
// DWARF names (abstract origins of clones and inlined copies).
func (b *Binary) instances(p Probe, withInlined bool) ([]instance, error) {
	out, err := b.allInstances(p, withInlined)
	if err != nil || p.Src == "" {
		return out, err
	}
	return b.filterSrc(p, out)
}

func (b *Binary) allInstances(p Probe, withInlined bool) ([]instance, error) {
	var out []instance
	seen := map[dwarf.Offset]bool{}
	addTree := func(ft *funcTree) {
		if !seen[ft.root.Offset] {
			seen[ft.root.Offset] = true
			out = append(out, instance{tree: ft, node: ft.root})
		}
	}
	name, params, has := splitParams(p.Func)
	for _, s := range b.symbolsNamed(name) {
		if ft, err := b.funcAt(s.Value); err == nil {
			addTree(ft)
		}
	}
	if len(out) > 0 && !withInlined {
		return out, nil
	}
	offs, err := b.dwarfFuncsNamed(name)
	if err != nil {
		return nil, err
	}
	if offs, err = b.overloads(p, name, params, has, offs); err != nil {
		return nil, err
	}
	for _, o := range offs {
		if err := b.concreteOf(o, withInlined, addTree, func(in instance) {
			out = append(out, in)
		}); err != nil {
			return nil, err
		}
	}
	if len(out) == 0 && !withInlined && len(offs) > 0 {
		// A return probe wants an out-of-line copy to return from; say
		// when the function exists but is only inlined.
		n := 0
		for _, o := range offs {
			if err := b.concreteOf(o, true, func(*funcTree) {}, func(instance) { n++ }); err != nil {
				return nil, err
			}
		}
		if n > 0 {
			return nil, &ProbeNotFoundError{Probe: p.Spec, What: "function", Name: p.Func, InlinedCopies: n}
		}
	}
	if len(out) == 0 {
		return nil, &ProbeNotFoundError{Probe: p.Spec, What: "function", Name: p.Func, Suggestions: b.suggestFuncs(p.Func)}
	}
	return out, nil
}

// filterSrc keeps the instances of FUNC@SRC: those whose compile unit or
// declaration file has the path suffix SRC.
func (b *Binary) filterSrc(p Probe, ins []instance) ([]instance, error) {
	var keep []instance
	var files []string
	for _, in := range ins {
		cu := b.srcUnitName(in.tree.cu, in.node)
		decl := declFile(b, in)
		if pathSuffix(cu, p.Src) || decl != "" && pathSuffix(decl, p.Src) {
			keep = append(keep, in)
			continue
		}
		for _, f := range []string{cu, decl} {
			if f = filepath.Base(f); f != "." && !slices.Contains(files, f) {
				files = append(files, f)
			}
		}
	}
	if len(keep) == 0 {
		sort.Strings(files)
		return nil, &ProbeNotFoundError{Probe: p.Spec, What: "function", Name: p.Func + "@" + p.Src,
			Suggestions: prefixAll(p.Func+"@", files)}
	}
	return keep, nil
}

func prefixAll(pre string, ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = pre + s
	}
	return out
}

// outOfLineCUs lists the compile units of a function's distinct out-of-line
// copies when there are several (static functions of one name).
func outOfLineCUs(b *Binary, ins []instance) []string {
	var cus []string
	n := 0
	for _, in := range ins {
		if in.inline {
			continue
		}
		n++
		cus = append(cus, b.srcUnitName(in.tree.cu, in.node))
	}
	if n < 2 {
		return nil
	}
	return cus
}

// concreteOf finds the out-of-line and (optionally) inlined instances of
// the subprogram DIE at off in its compile unit. A DIE without
// DW_AT_inline is its own only instance; otherwise one raw scan of the
// unit's DIEs finds the clones and inlined copies that refer to it, and
// only their functions' trees are loaded.
func (b *Binary) concreteOf(off dwarf.Offset, withInlined bool, addTree func(*funcTree), addInline func(instance)) error {
	u, ok := b.unitOf(off)
	if !ok {
		return nil
	}
	cuE, err := b.entryAt(u.die)
	if err != nil {
		return malformed("compile unit", err)
	}
	c, err := b.cuFor(cuE)
	if err != nil {
		return err
	}
	self, err := b.entryAt(off)
	if err != nil {
		return malformed("subprogram", err)
	}
	if self.Val(dwarf.AttrInline) == nil {
		if rg, err := b.dw.Ranges(self); err == nil && len(rg) > 0 {
			ft, err := b.tree(c, off)
			if err != nil {
				return err
			}
			addTree(ft)
			return nil
		}
		// No code of its own: an LTO early-debug declaration.
		return b.crossInstances(off, withInlined, addTree, addInline)
	}
	// Top-level functions holding a DIE whose abstract origin is off.
	var holders []dwarf.Offset
	r := b.dw.Reader()
	r.Seek(u.die)
	depth, top := 0, dwarf.Offset(0)
	for {
		e, err := r.Next()
		if err != nil {
			return malformed("DIEs", err)
		}
		if e == nil || e.Offset >= u.end {
			break
		}
		if e.Tag == 0 {
			depth--
			continue
		}
		if depth == 1 {
			top = e.Offset
		}
		if o, ok := e.Val(dwarf.AttrAbstractOrigin).(dwarf.Offset); ok && o == off &&
			(e.Tag == dwarf.TagSubprogram || e.Tag == dwarf.TagInlinedSubroutine && withInlined) {
			if len(holders) == 0 || holders[len(holders)-1] != top {
				holders = append(holders, top)
			}
		}
		if e.Children {
			depth++
		}
	}
	for _, h := range holders {
		if err := b.instancesIn(c, h, off, withInlined, addTree, addInline); err != nil {
			return err
		}
	}
	return b.crossInstances(off, withInlined, addTree, addInline)
}

// originOf returns the DW_AT_abstract_origin (or specification) of a node.
func originOf(n *godwarf.Tree) dwarf.Offset {
	if e, ok := n.Entry.(*dwarf.Entry); ok {
		if o, ok := e.Val(dwarf.AttrAbstractOrigin).(dwarf.Offset); ok {
			return o
		}
		if o, ok := e.Val(dwarf.AttrSpecification).(dwarf.Offset); ok {
			return o
		}
		return 0
	}
	// Composite entry: godwarf keeps the concrete DIE first.
	if o, ok := n.Val(dwarf.AttrAbstractOrigin).(dwarf.Offset); ok {
		return o
	}
	return 0
}

func walkInlined(n *godwarf.Tree, fn func(*godwarf.Tree)) {
	for _, c := range n.Children {
		if c.Tag == dwarf.TagInlinedSubroutine {
			fn(c)
		}
		if c.Tag == dwarf.TagInlinedSubroutine || c.Tag == dwarf.TagLexDwarfBlock {
			walkInlined(c, fn)
		}
	}
}

// instancesIn adds the instances of the subprogram at off that the
// top-level DIE holder of unit c holds: itself when it is an out-of-line
// copy with code, and (withInlined) its inlined copies.
func (b *Binary) instancesIn(c *cuInfo, holder, off dwarf.Offset, withInlined bool, addTree func(*funcTree), addInline func(instance)) error {
	ft, err := b.tree(c, holder)
	if err != nil {
		return err
	}
	if originOf(ft.root) == off && len(ft.root.Ranges) > 0 {
		addTree(ft)
	}
	if withInlined {
		walkInlined(ft.root, func(n *godwarf.Tree) {
			if originOf(n) == off {
				addInline(instance{tree: ft, node: n, inline: true})
			}
		})
	}
	return nil
}
