package dwarfvars

import (
	"debug/dwarf"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/go-delve/delve/pkg/dwarf/godwarf"
	"golang.org/x/arch/x86/x86asm"
)

// Site is one concrete probe address.
type Site struct {
	Probe Probe
	// Addr is the virtual (link-time) address of the probed instruction.
	Addr uint64
	// FileOffset is Addr's offset in the file, what a uprobe attaches to.
	FileOffset uint64
	// Func is the ELF symbol containing Addr (helper.constprop.0 for a
	// clone), or the DWARF name when there is no symbol table.
	Func string
	// FuncOffset is Addr minus the symbol's start: the OFF of
	// "uprobe/BIN:FUNC+0xOFF".
	FuncOffset uint64
	// Name is the C++ qualified name with its parameter list
	// (geo::Counter::add(long)) when Func is a mangled symbol, for
	// messages; empty otherwise.
	Name string
	File string
	Line int
	// Return marks a return probe (uretprobe at Func).
	Return bool
	// EntryAddr is the entry of the containing out-of-line function, where
	// entry values are saved.
	EntryAddr uint64
	// Inlined lists the inlined functions Addr is in, innermost first.
	Inlined []string
	// CU is the name (DW_AT_name) of the compile unit holding Addr.
	CU string
	// FuncAmbiguous is set when several functions of the binary have the
	// symbol name Func (static functions of one name in several compile
	// units, or their clones): "Func+0xOFF" does not say which, so attach
	// by FileOffset, and name the probe with OffsetSpec.
	FuncAmbiguous bool
	// NoSymbol is set when Func is named only by the separate debug file
	// of a stripped binary: attach by FileOffset.
	NoSymbol bool
}

// OffsetSpec is the FUNC+OFF probe of the site (FUNC%return for a return
// site), FUNC@CU+OFF when Func alone is ambiguous.
func (s Site) OffsetSpec() string {
	fn := s.Func
	if s.FuncAmbiguous && s.CU != "" {
		fn += "@" + filepath.Base(s.CU)
	}
	if s.Return {
		return fn + "%return"
	}
	return fmt.Sprintf("%s+%#x", fn, s.FuncOffset)
}

// String formats the site like "main+0x1c (prog.c:12)", with the
// qualified name of a C++ function instead of its mangled symbol.
func (s Site) String() string {
	fn := s.Func
	if s.Name != "" {
		fn = s.Name
	}
	r := fmt.Sprintf("%s+%#x", fn, s.FuncOffset)
	if s.Return {
		r = fn + "%return"
	}
	if s.File != "" {
		r += fmt.Sprintf(" (%s:%d)", filepath.Base(s.File), s.Line)
	}
	return r
}

// Resolve turns a probe into its sites, one per address, sorted by address.
func (b *Binary) Resolve(p Probe) (sites []Site, err error) {
	defer recoverInto(&err, "probe "+p.Spec)
	var addrs []uint64
	switch p.Kind {
	case ProbeFunc:
		addrs, err = b.resolveFunc(p)
	case ProbeFuncOffset:
		addrs, err = b.resolveFuncOffset(p)
	case ProbeFuncLine:
		addrs, err = b.resolveFuncLine(p)
	case ProbeFileLine:
		addrs, err = b.resolveFileLine(p)
	default:
		err = fmt.Errorf("probe %s: unknown kind %d", p.Spec, p.Kind)
	}
	if err != nil {
		return nil, err
	}
	sort.Slice(addrs, func(i, j int) bool { return addrs[i] < addrs[j] })
	for i, a := range addrs {
		if i > 0 && a == addrs[i-1] {
			continue
		}
		s, err := b.site(p, a)
		if err != nil {
			return nil, err
		}
		sites = append(sites, s)
	}
	return sites, nil
}

// SiteAt builds the Site for an address (for callers that have one).
func (b *Binary) SiteAt(addr uint64) (s Site, err error) {
	defer recoverInto(&err, fmt.Sprintf("address %#x", addr))
	return b.site(Probe{Spec: fmt.Sprintf("%#x", addr)}, addr)
}

func (b *Binary) site(p Probe, a uint64) (Site, error) {
	s := Site{Probe: p, Addr: a, Return: p.Return}
	s.FileOffset, _ = b.fileOffset(a)
	ft, err := b.funcAt(a)
	if err == nil {
		s.EntryAddr = ft.entry
		s.Func = ft.name
		s.CU = b.srcUnitName(ft.cu, ft.root)
		if rows, err := b.lines(ft.cu); err == nil {
			if r, ok := ft.cu.rowFor(a); ok {
				s.File, s.Line = r.file, r.line
			}
			// Several rows can share an address (a loop header is also the
			// function's first line): a line probe names the line it asked for.
			if want := probedLine(p, ft); want > 0 {
				for _, r := range rows {
					if r.addr == a && r.line == want && !r.endSeq {
						s.File, s.Line = r.file, r.line
						break
					}
				}
			}
		}
		for _, in := range inlineStack(ft.root, a) {
			n, _ := in.Val(dwarf.AttrName).(string)
			s.Inlined = append(s.Inlined, n)
		}
	}
	if sym, ok := b.symbolAt(a); ok {
		s.Func, s.FuncOffset = sym.Name, a-sym.Value
		if strings.HasPrefix(sym.Name, "_Z") && err == nil {
			s.Name = b.qualName(ft)
		}
		s.FuncAmbiguous = len(b.symbolsNamed(sym.Name)) > 1
		s.NoSymbol = b.notInBinary(sym.Name)
		if s.EntryAddr == 0 {
			s.EntryAddr = sym.Value
		}
	} else if err == nil {
		s.FuncOffset = a - ft.entry
	} else {
		return s, fmt.Errorf("probe %s: address %#x is in no known function: %w", p.Spec, a, err)
	}
	return s, nil
}

// probedLine returns the absolute line a line probe asks for (0 if none).
func probedLine(p Probe, ft *funcTree) int {
	switch p.Kind {
	case ProbeFileLine:
		return p.Line
	case ProbeFuncLine:
		if in, ok := ft.root.Val(dwarf.AttrDeclLine).(int64); ok && ft.name == simpleName(p.Func) {
			return int(in) + p.Line
		}
	}
	return 0
}

// inlineStack returns the inlined subroutines containing pc, innermost first.
func inlineStack(root *godwarf.Tree, pc uint64) []*godwarf.Tree {
	var out []*godwarf.Tree
	var walk func(n *godwarf.Tree)
	walk = func(n *godwarf.Tree) {
		for _, c := range n.Children {
			if (c.Tag == dwarf.TagInlinedSubroutine || c.Tag == dwarf.TagLexDwarfBlock) && c.ContainsPC(pc) {
				walk(c)
				if c.Tag == dwarf.TagInlinedSubroutine {
					out = append(out, c)
				}
				return
			}
		}
	}
	walk(root)
	return out
}

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

func (b *Binary) suggestFuncs(name string) []string {
	var all []string
	for _, s := range b.syms {
		all = append(all, s.Name)
	}
	if b.indexNames() == nil {
		for n := range b.names {
			all = append(all, n)
		}
	}
	return suggest(name, all)
}

// resolveFunc: FUNC and FUNC%return.
func (b *Binary) resolveFunc(p Probe) ([]uint64, error) {
	ins, err := b.instances(p, !p.Return)
	if err != nil {
		return nil, err
	}
	if p.Return {
		for _, in := range ins {
			if isGo(in.tree.cu) {
				return nil, &GoReturnError{Probe: p.Spec, Func: p.Func}
			}
		}
	}
	var out []uint64
	for _, in := range ins {
		if in.inline {
			if p.Return {
				continue
			}
			if a := entryPC(in.node); a != 0 {
				out = append(out, a)
			}
			continue
		}
		entry := in.tree.entry
		if !p.Return {
			entry = b.afterPrologue(in.tree)
		}
		out = append(out, entry)
	}
	if len(out) == 0 {
		return nil, &ProbeNotFoundError{Probe: p.Spec, What: "out-of-line function", Name: p.Func}
	}
	return out, nil
}

// afterPrologue returns where FUNC probes: the entry when the function is
// optimised (parameters are in their registers there), else the end of
// the prologue (prologue_end, or the second is_stmt row for gcc) so that
// frame-based locations hold the parameters.
func (b *Binary) afterPrologue(ft *funcTree) uint64 {
	b.bodyInfo(ft)
	if ft.opt {
		return ft.entry
	}
	return ft.body
}

// bodyInfo computes (once) whether the function is optimised and where its
// prologue ends.
func (b *Binary) bodyInfo(ft *funcTree) {
	ft.bodyOnce.Do(func() {
		opt, known := optimized(ft.cu.producer)
		if !known {
			opt = hasRegisterLocations(ft.root)
		}
		ft.opt, ft.body = opt, ft.entry
		if pe := b.findPrologueEnd(ft); pe != 0 {
			ft.body, ft.pe = pe, pe
			return
		}
		second := uint64(0)
		for _, rg := range ft.root.Ranges {
			ft.cu.rowsIn(rg[0], rg[1], func(i int) {
				r := ft.cu.rows[i]
				if r.stmt && r.addr > ft.entry && (second == 0 || r.addr < second) {
					second = r.addr
				}
			})
		}
		if second != 0 {
			ft.body = second
		}
	})
}

// prologueEnd returns the first prologue_end row inside the function, or 0.
func (b *Binary) prologueEnd(ft *funcTree) uint64 {
	b.bodyInfo(ft)
	return ft.pe
}

func (b *Binary) findPrologueEnd(ft *funcTree) uint64 {
	if _, err := b.lines(ft.cu); err != nil {
		return 0
	}
	var pe uint64
	for _, rg := range ft.root.Ranges {
		ft.cu.rowsIn(rg[0], rg[1], func(i int) {
			r := ft.cu.rows[i]
			if r.pEnd && r.addr > ft.entry && (pe == 0 || r.addr < pe) {
				pe = r.addr
			}
		})
	}
	return pe
}

// hasRegisterLocations reports whether any parameter or local lives in a
// location list or a register, which only optimised code does.
func hasRegisterLocations(n *godwarf.Tree) bool {
	for _, c := range n.Children {
		switch c.Tag {
		case dwarf.TagFormalParameter, dwarf.TagVariable:
			switch l := c.Val(dwarf.AttrLocation).(type) {
			case int64, uint64:
				return true
			case []byte:
				if len(l) > 0 && l[0] != 0x91 && l[0] != 0x03 && l[0] != 0xa1 { // fbreg, addr, addrx
					return true
				}
			}
		case dwarf.TagLexDwarfBlock, dwarf.TagInlinedSubroutine:
			if c.Tag == dwarf.TagInlinedSubroutine || hasRegisterLocations(c) {
				return true
			}
		}
	}
	return false
}

// resolveFuncOffset: FUNC+OFF, checked against instruction boundaries.
func (b *Binary) resolveFuncOffset(p Probe) ([]uint64, error) {
	ins, err := b.instances(p, false)
	if err != nil {
		return nil, err
	}
	if cus := outOfLineCUs(b, ins); cus != nil {
		// An offset is an instruction of one copy's code: in another
		// copy it may fall inside an instruction.
		var alts []string
		for _, cu := range cus {
			alts = append(alts, fmt.Sprintf("%s@%s+%#x", p.Func, filepath.Base(cu), p.Offset))
		}
		return nil, &AmbiguousFuncError{Probe: p.Spec, Func: p.Func, Units: cus, Alternatives: alts}
	}
	var out []uint64
	for _, in := range ins {
		if in.inline {
			continue
		}
		start := in.tree.entry
		end := start
		for _, r := range in.tree.root.Ranges {
			if r[0] <= start && start < r[1] {
				end = r[1]
			}
		}
		if sym, ok := b.symbolAt(start); ok && sym.Value == start && sym.Size > 0 {
			end = max(end, start+sym.Size)
		}
		if p.Offset >= end-start {
			return nil, &BadOffsetError{Probe: p.Spec, Func: p.Func, Offset: p.Offset, Outside: true}
		}
		if err := b.checkBoundary(p, start, end); err != nil {
			return nil, err
		}
		out = append(out, start+p.Offset)
	}
	return out, nil
}

// checkBoundary decodes from the function start to make sure start+OFF
// begins an instruction: a breakpoint inside one corrupts the program.
func (b *Binary) checkBoundary(p Probe, start, end uint64) error {
	code, err := b.code(start, end)
	if err != nil {
		return fmt.Errorf("probe %s: %w", p.Spec, err)
	}
	var pc uint64
	for pc < p.Offset {
		inst, err := x86asm.Decode(code[pc:], 64)
		if err != nil || inst.Len == 0 {
			return fmt.Errorf("probe %s: cannot decode instruction at %s+%#x: %v", p.Spec, p.Func, pc, err)
		}
		next := pc + uint64(inst.Len)
		if next > p.Offset {
			return &BadOffsetError{Probe: p.Spec, Func: p.Func, Offset: p.Offset, Prev: pc, Next: next}
		}
		pc = next
	}
	return nil
}

// resolveFuncLine: FUNC:RLN = decl_line + RLN in the function's file.
func (b *Binary) resolveFuncLine(p Probe) ([]uint64, error) {
	ins, err := b.instances(p, true)
	if err != nil {
		return nil, err
	}
	var out []uint64
	var file string
	var line int
	var nearest []int
	for _, in := range ins {
		decl, ok := in.node.Val(dwarf.AttrDeclLine).(int64)
		if !ok {
			return nil, fmt.Errorf("probe %s: function %s has no DW_AT_decl_line", p.Spec, p.Func)
		}
		line = int(decl) + p.Line
		rows, err := b.lines(in.tree.cu)
		if err != nil {
			return nil, err
		}
		f := declFile(b, in)
		for i, r := range rows {
			if r.endSeq || !r.stmt || r.line != line || i+1 >= len(rows) || !inRanges(in.node.Ranges, r.addr) {
				continue
			}
			if f == "" || r.file == f {
				out, file = append(out, r.addr), r.file
			}
		}
		nearest = append(nearest, linesIn(in.tree.cu, in.node.Ranges)...)
	}
	if len(out) == 0 {
		return nil, &NoCodeError{Probe: p.Spec, File: p.Func, Line: line, Nearest: closest(nearest, line, 4)}
	}
	_ = file
	return out, nil
}

// declFile returns the file name of a function's DW_AT_decl_file.
func declFile(b *Binary, in instance) string {
	idx, ok := in.node.Val(dwarf.AttrDeclFile).(int64)
	if !ok {
		return ""
	}
	// The index is into the file table of the unit holding the
	// declaration: another unit's for LTO code (see lto.go).
	lr, err := b.dw.LineReader(b.srcUnit(in.tree.cu, in.node))
	if err != nil || lr == nil {
		return ""
	}
	fs := lr.Files()
	if idx < 0 || int(idx) >= len(fs) || fs[idx] == nil {
		return ""
	}
	return fs[idx].Name
}

// resolveFileLine: FILE:LINE in every CU whose line table names a file
// with that path suffix.
func (b *Binary) resolveFileLine(p Probe) ([]uint64, error) {
	var out []uint64
	var nearest []int
	var known []string
	fileSeen := false
	err := b.allCUs(func(c *cuInfo) error {
		rows, err := b.lines(c)
		if err != nil {
			return nil // a broken line table in another CU does not matter
		}
		for i, r := range rows {
			if !pathSuffix(r.file, p.File) {
				if len(known) < 2000 && r.file != "" {
					known = append(known, filepath.Base(r.file))
				}
				continue
			}
			fileSeen = true
			if r.endSeq || i+1 >= len(rows) {
				continue
			}
			if r.line == p.Line && r.stmt {
				out = append(out, r.addr)
			} else if r.line > 0 {
				nearest = append(nearest, r.line)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if !fileSeen {
		return nil, &ProbeNotFoundError{Probe: p.Spec, What: "file", Name: p.File, Suggestions: suggest(filepath.Base(p.File), known)}
	}
	if len(out) == 0 {
		return nil, &NoCodeError{Probe: p.Spec, File: p.File, Line: p.Line, Nearest: closest(nearest, p.Line, 4)}
	}
	return out, nil
}

// pathSuffix reports whether path ends with suffix on a path-component
// boundary.
func pathSuffix(path, suffix string) bool {
	suffix = strings.TrimPrefix(suffix, "./")
	if path == suffix {
		return true
	}
	return strings.HasSuffix(path, "/"+suffix) || (strings.HasPrefix(suffix, "/") && filepath.Clean(path) == filepath.Clean(suffix))
}

// closest returns up to n distinct values of lines nearest to target.
func closest(lines []int, target, n int) []int {
	seen := map[int]bool{}
	var u []int
	for _, l := range lines {
		if !seen[l] && l != target {
			seen[l] = true
			u = append(u, l)
		}
	}
	sort.Slice(u, func(i, j int) bool {
		di, dj := abs(u[i]-target), abs(u[j]-target)
		return di < dj || di == dj && u[i] < u[j]
	})
	if len(u) > n {
		u = u[:n]
	}
	sort.Ints(u)
	return u
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
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
