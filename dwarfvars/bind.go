package dwarfvars

import (
	"debug/dwarf"
	"errors"
	"fmt"
	"sort"

	"github.com/go-delve/delve/pkg/dwarf/godwarf"
)

// Binding says how a probe program at Site fetches the value of Expr.
//
// For scalar results (integers, enums, pointers) Loc is always LocValue:
// run Loc.Fetch and keep the low Type.Size bytes, then convert per
// Type.Signed. Aggregates are LocMemory (read Type.Size bytes at the
// address Loc.Fetch computes), LocValue (a small struct held in a
// register) or LocPieces.
type Binding struct {
	Site Site
	Expr Expr
	// Var is the root variable of the expression.
	Var  Var
	Type *Type
	Loc  Location
	// Entry is set when Loc uses SrcEntryValue: attach a helper at
	// Entry.Addr that saves Entry.Regs.
	Entry *EntryInfo
}

// EntryInfo is what the entry-value helper program needs. The helper saves
// the registers in a map keyed by thread and the CFA at entry (EntryCFA,
// normally rsp+8); the site program looks them up with the thread and the
// CFA at the site (SiteCFA), which is the same frame's CFA.
type EntryInfo struct {
	Addr, FileOffset, FuncOffset uint64
	Func                         string
	// FuncAmbiguous: several functions are named Func; attach by
	// FileOffset (see Site.FuncAmbiguous).
	FuncAmbiguous bool
	// NoSymbol: Func is not in the stripped binary's own symbols; attach
	// by FileOffset.
	NoSymbol          bool
	Regs              []int
	EntryCFA, SiteCFA Source
}

// Describe renders the binding like "cnt = *(s32 *)(CFA-28 = rsp+36)".
func (bd *Binding) Describe() string {
	return bd.Expr.Text + " = " + bd.Loc.Describe(bd.Type)
}

// ReadsMemory reports whether the fetch reads tracee memory (the program
// then wants bpf_probe_read_user or a sleepable copy).
func (bd *Binding) ReadsMemory() bool { return bd.Loc.ReadsMemory() }

// Bind resolves a binding expression at a site.
func (b *Binary) Bind(s Site, e Expr) (bd *Binding, err error) {
	defer recoverInto(&err, "bind "+e.Text)
	label := siteLabel(s)
	v, err := b.lookupVar(s, e.Var)
	if _, missing := err.(*VarNotFoundError); missing {
		// In a C++ member function a member is named without this->,
		// as gdb reads it.
		if tv, terr := b.lookupVar(s, "this"); terr == nil && tv.Err == nil && b.hasMember(tv.Type, e.Var) {
			e.Path = append([]PathElem{{Kind: PathArrow, Name: e.Var}}, e.Path...)
			e.Var, v, err = "this", tv, nil
		}
	}
	if err != nil {
		return nil, err
	}
	pe := &pathEval{b: b, site: label, expr: e.Text, name: v.Name, avail: v.availBytes}
	pe.index = func(ix Expr) (*Binding, error) { return b.Bind(s, ix) }
	loc, t := v.Loc, v.Type
	path, derefs := e.Path, e.Derefs
	if v.Err != nil {
		var ip *ImplicitPointerError
		if !errors.As(v.Err, &ip) {
			return nil, v.Err
		}
		if loc, t, path, derefs, err = b.throughImplicit(s, pe, v, ip, path, derefs); err != nil {
			return nil, err
		}
	}
	for _, st := range path {
		loc, t, err = pe.step(loc, t, st)
		if err != nil {
			return nil, pe.where(err, t.Size)
		}
	}
	if loc, t, err = pe.seeThrough(loc, t); err != nil {
		return nil, err
	}
	for i := 0; i < derefs; i++ {
		if t.Kind != KindPointer {
			return nil, pe.fail("cannot dereference %s of type %s", e.Var, t.Spelling)
		}
		if err := pe.complete(t.Elem); err != nil {
			return nil, err
		}
		val, err := pe.value(loc, 8)
		if err != nil {
			return nil, pe.where(err, 8)
		}
		loc, t = Location{Kind: LocMemory, Fetch: val, Size: t.Elem.Size}, t.Elem
		pe.base = -1
	}
	if e.AddrOf {
		if loc.Kind != LocMemory {
			return nil, pe.fail("%s has no address: it is not in memory here", e.Text)
		}
		t = &Type{Kind: KindPointer, Size: 8, Elem: t, Spelling: ptrSpelling(t), Count: -1}
		loc = Location{Kind: LocValue, Fetch: loc.Fetch, Size: 8}
	}
	if t.Kind == KindVoid || t.Kind == KindFunc {
		return nil, pe.fail("%s has type %s, which has no value", e.Text, t.Spelling)
	}
	if t.Scalar() {
		f, err := pe.value(loc, t.Size)
		if err != nil {
			return nil, pe.where(err, t.Size)
		}
		loc = Location{Kind: LocValue, Fetch: f, Size: t.Size}
	}
	if loc.Kind == LocOptimizedOut {
		// An aggregate whose bytes are all optimized out here.
		return nil, pe.where(&OptimizedOutError{Site: label, Var: e.Text}, t.Size)
	}
	if s.Return && loc.walk(func(f *Fetch) bool { return f.Start.Kind == SrcAddr }) {
		// At a uretprobe ctx->ip is the return address in the caller, so
		// static storage cannot be rebased on it.
		return nil, &UnsupportedError{Site: label, Var: e.Text, Reason: "static storage cannot be located at a return probe"}
	}
	bd = &Binding{Site: s, Expr: e, Var: v, Type: t, Loc: loc}
	if loc.UsesEntryValue() {
		if bd.Entry, err = b.entryInfo(s, loc); err != nil {
			return nil, err
		}
	}
	return bd, nil
}

// throughImplicit takes the first dereference of a pointer the optimiser
// removed (DW_OP_implicit_pointer): b->m, b[k] or *b is the pointee
// variable's location at the offset, read as gdb reads its <synthetic
// pointer> (jq's block_append b, yyerror loc at gcc -O2). The pointer's own
// value stays unreadable.
func (b *Binary) throughImplicit(s Site, pe *pathEval, v Var, ip *ImplicitPointerError, path []PathElem, derefs int) (Location, *Type, []PathElem, int, error) {
	t := v.Type
	if t.Kind != KindPointer || t.Elem == nil {
		return Location{}, t, path, derefs, ip
	}
	var idx int64
	switch {
	case len(path) > 0 && path[0].Kind == PathArrow:
	case len(path) > 0 && path[0].Kind == PathIndex && path[0].IndexExpr == nil:
		idx = path[0].Index
	case len(path) == 0 && derefs > 0:
	default:
		return Location{}, t, path, derefs, ip
	}
	if err := pe.complete(t.Elem); err != nil {
		return Location{}, t, path, derefs, err
	}
	ft, err := b.funcAt(s.Addr)
	if err != nil {
		return Location{}, t, path, derefs, err
	}
	target, err := b.entryAt(ip.Target)
	if err != nil {
		return Location{}, t, path, derefs, malformed("DW_OP_implicit_pointer's variable", err)
	}
	tt := b.typeOf(target)
	tl, err := b.varLoc(s, ft, target, v.Name, tt)
	if err != nil {
		return Location{}, t, path, derefs, err
	}
	loc, err := pe.sub(tl, int(ip.Offset+idx*int64(t.Elem.Size)), t.Elem.Size)
	if err != nil {
		return Location{}, t, path, derefs, pe.where(err, t.Elem.Size)
	}
	pe.base = -1
	switch {
	case len(path) > 0 && path[0].Kind == PathArrow:
		l, mt, err := pe.member(loc, t.Elem, path[0].Name)
		return l, mt, path[1:], derefs, err
	case len(path) > 0:
		return loc, t.Elem, path[1:], derefs, nil
	}
	return loc, t.Elem, path, derefs - 1, nil
}

// lookupVar finds a visible variable (innermost first), then a global.
func (b *Binary) lookupVar(s Site, name string) (Var, error) {
	vs, err := b.Vars(s)
	if err != nil {
		return Var{}, err
	}
	for _, v := range vs {
		if v.Name == name && !v.Shadowed {
			return v, nil
		}
	}
	if g, ok, err := b.global(s, name); err != nil || ok {
		return g, err
	}
	var names []string
	for _, v := range vs {
		if !v.Shadowed {
			names = append(names, v.Name)
		}
	}
	sort.Strings(names)
	return Var{}, &VarNotFoundError{Site: siteLabel(s), Name: name, Visible: names}
}

// global finds a file-scope variable, preferring the site's compile unit.
func (b *Binary) global(s Site, name string) (Var, bool, error) {
	if err := b.indexNames(); err != nil {
		return Var{}, false, err
	}
	offs := b.globals[name]
	if len(offs) == 0 {
		return Var{}, false, nil
	}
	pick := offs[0]
	if u, ok := b.unitOfAddr(s.Addr); ok {
		for _, o := range offs {
			if o >= u.start && o < u.end {
				pick = o
				break
			}
		}
	}
	u, ok := b.unitOf(pick)
	if !ok {
		return Var{}, false, nil
	}
	cuE, err := b.entryAt(u.die)
	if err != nil {
		return Var{}, false, malformed("compile unit", err)
	}
	c, err := b.cuFor(cuE)
	if err != nil {
		return Var{}, false, err
	}
	e, err := b.entryAt(pick)
	if err != nil {
		return Var{}, false, malformed("variable DIE", err)
	}
	node, _ := godwarf.LoadAbstractOriginAndSpecification(e, b.dw.Reader())
	ft := &funcTree{cu: c, root: &godwarf.Tree{Entry: node, Offset: pick, Tag: e.Tag}}
	v := Var{Name: name, Kind: VarGlobal, Scope: "<file>"}
	v.Type = b.typeOf(node)
	if l, ok := node.Val(dwarf.AttrDeclLine).(int64); ok {
		v.DeclLine = int(l)
	}
	v.Loc, v.Err = b.varLoc(s, ft, node, name, v.Type)
	return v, true, nil
}

func (b *Binary) unitOfAddr(pc uint64) (unitHdr, bool) {
	c, err := b.cuAt(pc)
	if err != nil {
		return unitHdr{}, false
	}
	return c.hdr, true
}

// entryInfo fills in what the entry-value helper needs.
func (b *Binary) entryInfo(s Site, loc Location) (*EntryInfo, error) {
	ei := &EntryInfo{Addr: s.EntryAddr, Regs: loc.EntryRegs()}
	ei.FileOffset, _ = b.fileOffset(ei.Addr)
	if sym, ok := b.symbolAt(ei.Addr); ok {
		ei.Func, ei.FuncOffset = sym.Name, ei.Addr-sym.Value
		ei.FuncAmbiguous = len(b.symbolsNamed(sym.Name)) > 1
		ei.NoSymbol = b.notInBinary(sym.Name)
	} else {
		ei.Func = s.Func
	}
	var err error
	if ei.EntryCFA, err = b.cfaAt(ei.Addr); err != nil {
		return nil, &UnsupportedError{Site: siteLabel(s), Var: "entry value", Reason: err.Error()}
	}
	if ei.SiteCFA, err = b.cfaAt(s.Addr); err != nil {
		return nil, &UnsupportedError{Site: siteLabel(s), Var: "entry value", Reason: err.Error()}
	}
	return ei, nil
}

// pathEval applies path steps to a location.
type pathEval struct {
	b                *Binary
	site, expr, name string
	// base is the offset within the root variable of the object the
	// location describes, -1 once a pointer has been followed.
	base  int
	avail func(off, size int) ([]int, []string)
	// index binds an index expression ("i" in "v[i]") at the same site.
	index func(Expr) (*Binding, error)
}

// where completes an optimized-out error of the path's object with the
// lines where its bytes of the root variable have a location.
func (pe *pathEval) where(err error, size int) error {
	var oo *OptimizedOutError
	if pe.base < 0 || pe.avail == nil || size <= 0 || !errors.As(err, &oo) || oo.Reason != "" || len(oo.Lines) > 0 || len(oo.OtherLines) > 0 {
		return err
	}
	lines, other := pe.avail(pe.base, size)
	return &OptimizedOutError{Site: oo.Site, Var: oo.Var, Lines: lines, OtherLines: other, Line: oo.Line}
}

// seeThrough turns a C++ reference into the object it refers to.
func (pe *pathEval) seeThrough(loc Location, t *Type) (Location, *Type, error) {
	for t.Kind == KindPointer && t.Ref {
		if err := pe.complete(t.Elem); err != nil {
			return loc, t, err
		}
		p, err := pe.value(loc, 8)
		if err != nil {
			return loc, t, pe.where(err, 8)
		}
		pe.base = -1
		loc, t = Location{Kind: LocMemory, Fetch: p, Size: t.Elem.Size}, t.Elem
	}
	return loc, t, nil
}

// complete looks up the definition of a struct its unit only declares.
func (pe *pathEval) complete(t *Type) error {
	if err := pe.b.complete(t); err != nil {
		return &PathError{Site: pe.site, Expr: pe.expr, Reason: err.Error(), Err: err}
	}
	return nil
}

func (pe *pathEval) fail(format string, a ...any) error {
	return &PathError{Site: pe.site, Expr: pe.expr, Reason: fmt.Sprintf(format, a...)}
}

func (pe *pathEval) step(loc Location, t *Type, st PathElem) (Location, *Type, error) {
	loc, t, err := pe.seeThrough(loc, t)
	if err != nil {
		return loc, t, err
	}
	switch {
	case t.Kind == KindPointer:
		if err := pe.complete(t.Elem); err != nil {
			return loc, t, err
		}
	case t.Kind == KindStruct || t.Kind == KindUnion:
		if err := pe.complete(t); err != nil {
			return loc, t, err
		}
	}
	switch st.Kind {
	case PathField:
		if t.Kind != KindStruct && t.Kind != KindUnion {
			return loc, t, pe.fail("'.%s' on %s, which is not a struct or union", st.Name, t.Spelling)
		}
		return pe.member(loc, t, st.Name)
	case PathArrow:
		if t.Kind != KindPointer || (t.Elem.Kind != KindStruct && t.Elem.Kind != KindUnion) {
			return loc, t, pe.fail("'->%s' on %s, which is not a pointer to a struct or union", st.Name, t.Spelling)
		}
		p, err := pe.value(loc, 8)
		if err != nil {
			return loc, t, pe.where(err, 8)
		}
		pe.base = -1
		return pe.member(Location{Kind: LocMemory, Fetch: p, Size: t.Elem.Size}, t.Elem, st.Name)
	case PathIndex:
		if st.IndexExpr != nil {
			return pe.variableIndex(loc, t, *st.IndexExpr)
		}
		switch t.Kind {
		case KindArray:
			if t.Count > 0 && st.Index >= int64(t.Count) {
				return loc, t, pe.fail("index %d is out of range for %s", st.Index, t.Spelling)
			}
			l, err := pe.sub(loc, int(st.Index)*t.Elem.Size, t.Elem.Size)
			if pe.base >= 0 {
				pe.base += int(st.Index) * t.Elem.Size
			}
			return l, t.Elem, err
		case KindPointer:
			if t.Elem.Size <= 0 {
				return loc, t, pe.fail("cannot index %s", t.Spelling)
			}
			p, err := pe.value(loc, 8)
			if err != nil {
				return loc, t, pe.where(err, 8)
			}
			pe.base = -1
			p = p.then(Step{Op: OpAdd, Imm: st.Index * int64(t.Elem.Size)})
			return Location{Kind: LocMemory, Fetch: p, Size: t.Elem.Size}, t.Elem, nil
		}
		return loc, t, pe.fail("'[%d]' on %s, which is not an array or pointer", st.Index, t.Spelling)
	}
	return loc, t, pe.fail("bad path step")
}

// variableIndex selects element [ix] of an array in memory or of what a
// pointer points to, where ix is read from the target at the probe: the
// element's address is computed and read with bpf_probe_read_user, so an
// index out of the array's bounds reads other memory, as gdb reads it.
func (pe *pathEval) variableIndex(loc Location, t *Type, ix Expr) (Location, *Type, error) {
	if t.Kind != KindArray && t.Kind != KindPointer {
		return loc, t, pe.fail("'[%s]' on %s, which is not an array or pointer", ix.Text, t.Spelling)
	}
	if t.Elem == nil || t.Elem.Size <= 0 {
		return loc, t, pe.fail("cannot index %s", t.Spelling)
	}
	bd, err := pe.index(ix)
	if err != nil {
		return loc, t, err
	}
	it := bd.Type
	if it.Kind != KindBase && it.Kind != KindEnum || it.Float || bd.Loc.Kind != LocValue {
		return loc, t, pe.fail("index %s has type %s, which is not an integer", ix.Text, it.Spelling)
	}
	off := extend(bd.Loc.Fetch, it.Size, it.Signed).then(Step{Op: OpMul, Imm: int64(t.Elem.Size)})
	var addr *Fetch
	if t.Kind == KindArray {
		if loc.Kind != LocMemory {
			// A small array held in registers: shift its value.
			if t.Size > 8 {
				return loc, t, pe.fail("%s is in registers here, not memory, so it cannot be indexed by %s", pe.expr, ix.Text)
			}
			v, err := pe.value(loc, t.Size)
			if err != nil {
				return loc, t, pe.where(err, t.Size)
			}
			pe.base = -1
			sh := off.then(Step{Op: OpShl, Imm: 3})
			return Location{Kind: LocValue, Fetch: v.then(Step{Op: OpShr, Arg: sh}), Size: t.Elem.Size}, t.Elem, nil
		}
		addr = loc.Fetch
	} else {
		if addr, err = pe.value(loc, 8); err != nil {
			return loc, t, pe.where(err, 8)
		}
	}
	pe.base = -1
	return Location{Kind: LocMemory, Fetch: addr.then(Step{Op: OpAdd, Arg: off}), Size: t.Elem.Size}, t.Elem, nil
}

func (pe *pathEval) member(loc Location, t *Type, name string) (Location, *Type, error) {
	m, ok := t.Member(name)
	if !ok {
		m, ok = pe.b.baseMember(t, name, 0)
	}
	if !ok {
		var names []string
		for _, m := range t.Members {
			names = append(names, m.Name)
		}
		return loc, t, pe.fail("%s has no member %q (members: %v)", t.Spelling, name, names)
	}
	size := m.Type.Size
	l, err := pe.sub(loc, m.Offset, size)
	if pe.base >= 0 {
		pe.base += m.Offset
	}
	if err != nil || m.BitSize == 0 {
		return l, m.Type, err
	}
	// Bit-field: fetch the storage unit, then shift and mask.
	v, err := pe.value(l, size)
	if err != nil {
		return l, m.Type, err
	}
	if m.Type.Signed {
		v = v.then(Step{Op: OpShl, Imm: int64(64 - m.BitOffset - m.BitSize)}).then(Step{Op: OpShra, Imm: int64(64 - m.BitSize)})
	} else {
		if m.BitOffset > 0 {
			v = v.then(Step{Op: OpShr, Imm: int64(m.BitOffset)})
		}
		v = v.then(Step{Op: OpAnd, Imm: int64(uint64(1)<<m.BitSize - 1)})
	}
	return Location{Kind: LocValue, Fetch: v, Size: size}, m.Type, nil
}

// sub selects bytes [off, off+size) of an object.
func (pe *pathEval) sub(loc Location, off, size int) (Location, error) {
	switch loc.Kind {
	case LocMemory:
		return Location{Kind: LocMemory, Fetch: loc.Fetch.then(Step{Op: OpAdd, Imm: int64(off)}), Size: size}, nil
	case LocValue:
		if off+size > 8 {
			return loc, pe.fail("bytes %d..%d of a value held in a register", off, off+size)
		}
		f := loc.Fetch
		if off > 0 {
			f = f.then(Step{Op: OpShr, Imm: int64(8 * off)})
		}
		return Location{Kind: LocValue, Fetch: f, Size: size}, nil
	case LocPieces:
		var ps []Piece
		for _, p := range loc.Pieces {
			lo, hi := max(p.Offset, off), min(p.Offset+p.Size, off+size)
			if lo >= hi {
				continue
			}
			if p.Loc.Kind == LocOptimizedOut {
				// Kept: a narrower path may not need these bytes.
				ps = append(ps, Piece{Offset: lo - off, Size: hi - lo, Loc: Location{Kind: LocOptimizedOut, Size: hi - lo}})
				continue
			}
			if lo == p.Offset && hi == p.Offset+p.Size && lo == off && hi == off+size {
				return p.Loc, nil
			}
			in, err := pe.sub(p.Loc, lo-p.Offset, hi-lo)
			if err != nil {
				return loc, err
			}
			ps = append(ps, Piece{Offset: lo - off, Size: hi - lo, Loc: in})
		}
		covered := 0
		for _, p := range ps {
			covered += p.Size
		}
		if covered < size {
			return loc, &OptimizedOutError{Site: pe.site, Var: pe.expr}
		}
		if len(ps) == 1 && ps[0].Offset == 0 {
			return ps[0].Loc, nil
		}
		return Location{Kind: LocPieces, Pieces: ps, Size: size}, nil
	}
	return loc, &OptimizedOutError{Site: pe.site, Var: pe.expr}
}

// value returns a Fetch computing a scalar of size bytes held at loc.
func (pe *pathEval) value(loc Location, size int) (*Fetch, error) {
	switch loc.Kind {
	case LocValue:
		return loc.Fetch, nil
	case LocMemory:
		if size != 1 && size != 2 && size != 4 && size != 8 {
			return nil, &UnsupportedError{Site: pe.site, Var: pe.expr, Reason: fmt.Sprintf("is a %d-byte scalar", size)}
		}
		return loc.Fetch.then(Step{Op: OpDeref, Size: size}), nil
	case LocPieces:
		// Assemble: v = p0 | p1 << 8*off1 | ...
		var acc *Fetch
		for _, p := range loc.Pieces {
			if p.Loc.Kind == LocOptimizedOut {
				return nil, &OptimizedOutError{Site: pe.site, Var: pe.expr}
			}
			if p.Offset+p.Size > 8 {
				return nil, &UnsupportedError{Site: pe.site, Var: pe.expr, Reason: "pieces beyond 8 bytes"}
			}
			v, err := pe.value(p.Loc, p.Size)
			if err != nil {
				return nil, err
			}
			v = extend(v, p.Size, false)
			if p.Offset > 0 {
				v = v.then(Step{Op: OpShl, Imm: int64(8 * p.Offset)})
			}
			if acc == nil {
				acc = v
			} else {
				acc = acc.then(Step{Op: OpOr, Arg: v})
			}
		}
		if acc == nil {
			return nil, &OptimizedOutError{Site: pe.site, Var: pe.expr}
		}
		return acc, nil
	}
	return nil, &OptimizedOutError{Site: pe.site, Var: pe.expr}
}

// hasMember reports whether t points to a struct, class or union with a
// member of that name, its own or a base class's.
func (b *Binary) hasMember(t *Type, name string) bool {
	if t == nil || t.Kind != KindPointer || t.Elem == nil {
		return false
	}
	if _, ok := t.Elem.Member(name); ok {
		return true
	}
	_, ok := b.baseMember(t.Elem, name, 0)
	return ok
}
