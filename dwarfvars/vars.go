package dwarfvars

import (
	"debug/dwarf"
	"encoding/binary"
	"fmt"
	"sort"
	"strings"

	"github.com/go-delve/delve/pkg/dwarf/godwarf"
)

// VarKind classifies a variable.
type VarKind uint8

// Variable kinds.
const (
	VarParam  VarKind = iota // formal parameter
	VarLocal                 // automatic local
	VarStatic                // function-scope static
	VarGlobal                // file-scope or external variable
	VarReturn                // the return value at a return probe ($retval)
)

func (k VarKind) String() string {
	return [...]string{"param", "local", "static", "global", "return"}[min(int(k), 4)]
}

// Var is a variable visible at a site with its location there.
type Var struct {
	Name string
	Kind VarKind
	Type *Type
	// Loc is the variable's location at the site. When the variable cannot
	// be read there, Loc.Kind is LocOptimizedOut and Err says why
	// (*OptimizedOutError, *UnsupportedError).
	Loc Location
	Err error
	// DeclFile and DeclLine are where it is declared (0 if unknown).
	DeclFile string
	DeclLine int
	// Scope is the function it belongs to: the probed function or, for a
	// variable of an inlined copy, the inlined function.
	Scope   string
	Inlined bool
	// Depth is the lexical nesting depth (0 for parameters of the
	// outermost function); an inner variable shadows outer ones of the
	// same name, which are marked Shadowed.
	Depth    int
	Shadowed bool

	// availBytes lists the lines where bytes [off, off+size) of the
	// variable have a location (nil when unknown).
	availBytes func(off, size int) ([]int, []string)
}

// siteLabel names a site in diagnostics.
func siteLabel(s Site) string {
	if s.Probe.Spec != "" {
		return fmt.Sprintf("probe %s at %s", s.Probe.Spec, s.String())
	}
	return s.String()
}

// Vars lists every variable visible at a site by C's scoping rules,
// innermost scope first: the parameters and locals of the function whose
// code the address is (the innermost inlined copy containing it, or the
// out-of-line function), of its enclosing lexical blocks, and its static
// locals. Inside an inlined copy the caller's variables are not in scope
// (its body sees its own parameters and locals, then file-scope names), so
// they are not listed. At a FUNC probe the scope is the named function's
// entry: inlined copies that begin at that address have not started yet,
// as gdb has it for "break FUNC". At a return site it lists $retval.
func (b *Binary) Vars(s Site) (vs []Var, err error) {
	defer recoverInto(&err, "variables at "+s.String())
	ft, err := b.funcAt(s.Addr)
	if err != nil {
		if sym, ok := b.symbolAt(s.Addr); ok && b.symbolOnlyFunc(sym) {
			// A function only its symbol describes (see symbolOnly):
			// nothing is in scope, as in gdb, nor is its return
			// value's type known.
			return nil, nil
		}
		return nil, fmt.Errorf("%s: %w", siteLabel(s), err)
	}
	if s.Return {
		v, err := b.retval(s, ft)
		if err != nil {
			return nil, err
		}
		return []Var{v}, nil
	}
	var col collector
	col.b, col.site, col.ft = b, s, ft
	col.walk(ft.root, 0, ft.name, false)
	vs = col.vars
	if col.inlDepth > 0 {
		// Drop the callers' variables: deeper than the innermost inlined
		// copy's own parameters are its blocks, shallower are its callers.
		own := vs[:0]
		for _, v := range vs {
			if v.Depth >= col.inlDepth {
				own = append(own, v)
			}
		}
		vs = own
	}
	sort.SliceStable(vs, func(i, j int) bool { return vs[i].Depth > vs[j].Depth })
	seen := map[string]bool{}
	for i := range vs {
		if seen[vs[i].Name] {
			vs[i].Shadowed = true
		}
		seen[vs[i].Name] = true
	}
	return vs, nil
}

type collector struct {
	b    *Binary
	site Site
	ft   *funcTree
	vars []Var
	// inlDepth is the depth of the innermost inlined copy's own variables
	// (0 when the address is in no inlined copy).
	inlDepth int
}

// entersInlined reports whether the scope at the site is inside an inlined
// copy that contains it. At a FUNC probe (the entry of the named function)
// an inlined copy of another function that begins exactly there has not
// started: gdb shows the named function's frame for "break FUNC".
func (c *collector) entersInlined(n *godwarf.Tree, name string) bool {
	p := c.site.Probe
	if p.Kind != ProbeFunc || p.Return || p.Func == "" || entryPC(n) != c.site.Addr {
		return true
	}
	fn := simpleName(p.Func)
	base, _, _ := strings.Cut(fn, ".")
	return name == fn || name == base || c.leadsTo(n, fn, base)
}

// leadsTo reports whether an inlined copy of fn (or base) inside n
// contains the site: the copy beginning at a FUNC probe is then the named
// function's caller, inlined too, which the walk goes through (jq's
// block_is_single inlined into gen_op_bound's copy at the same address:
// its parameter b was "not visible").
func (c *collector) leadsTo(n *godwarf.Tree, fn, base string) bool {
	for _, ch := range n.Children {
		if ch.Tag != dwarf.TagInlinedSubroutine && ch.Tag != dwarf.TagLexDwarfBlock || !ch.ContainsPC(c.site.Addr) {
			continue
		}
		if name, _ := ch.Val(dwarf.AttrName).(string); ch.Tag == dwarf.TagInlinedSubroutine && (name == fn || name == base) {
			return true
		}
		if c.leadsTo(ch, fn, base) {
			return true
		}
	}
	return false
}

func (c *collector) walk(n *godwarf.Tree, depth int, scope string, inlined bool) {
	var concrete = map[dwarf.Offset]bool{}
	for _, ch := range n.Children {
		switch ch.Tag {
		case dwarf.TagFormalParameter, dwarf.TagVariable:
			if o := originOf(ch); o != 0 {
				concrete[o] = true
			}
			if ch.Val(dwarf.AttrDeclaration) == true || ch.Val(dwarf.AttrName) == nil {
				continue
			}
			c.vars = append(c.vars, c.b.makeVar(c.site, c.ft, ch, depth, scope, inlined))
		case dwarf.TagLexDwarfBlock:
			if ch.ContainsPC(c.site.Addr) {
				c.walk(ch, depth+1, scope, inlined)
			}
		case dwarf.TagInlinedSubroutine:
			if ch.ContainsPC(c.site.Addr) {
				name, _ := ch.Val(dwarf.AttrName).(string)
				if c.entersInlined(ch, name) {
					c.inlDepth = max(c.inlDepth, depth+1)
					c.walk(ch, depth+1, name, true)
				}
			}
		}
	}
	// Parameters the concrete copy dropped (a clone's constant argument,
	// an unused parameter of an inlined copy) still exist in the source,
	// and static locals live only in the abstract origin (one object for
	// every copy): take them from there.
	if o := originOf(n); o != 0 {
		switch n.Tag {
		case dwarf.TagSubprogram, dwarf.TagInlinedSubroutine:
			c.abstractVars(o, concrete, depth, scope, inlined, true)
		case dwarf.TagLexDwarfBlock:
			c.abstractVars(o, concrete, depth, scope, inlined, false)
		}
	}
}

// abstractVars adds the abstract origin's variables that have no concrete
// DIE: its parameters (when params is set), as optimized out or constant
// (DW_AT_const_value), and its static locals (a DW_AT_location that is an
// expression, not a location list: static storage).
func (c *collector) abstractVars(origin dwarf.Offset, concrete map[dwarf.Offset]bool, depth int, scope string, inlined, params bool) {
	t, err := godwarf.LoadTree(origin, c.b.dw, 0)
	if err != nil {
		return
	}
	for _, ch := range t.Children {
		if concrete[ch.Offset] || ch.Val(dwarf.AttrName) == nil || ch.Val(dwarf.AttrDeclaration) == true {
			continue
		}
		switch {
		case ch.Tag == dwarf.TagFormalParameter && params:
		case ch.Tag == dwarf.TagVariable && isStaticLocal(ch):
		default:
			continue
		}
		c.vars = append(c.vars, c.b.makeVar(c.site, c.ft, ch, depth, scope, inlined))
	}
}

// isStaticLocal reports whether an abstract variable DIE has static
// storage: its location is one expression starting with DW_OP_addr or
// DW_OP_addrx (an automatic variable's abstract DIE has no location).
func isStaticLocal(n *godwarf.Tree) bool {
	f := n.AttrField(dwarf.AttrLocation)
	if f == nil || f.Class != dwarf.ClassExprLoc {
		return false
	}
	e, ok := f.Val.([]byte)
	return ok && len(e) > 0 && (e[0] == 0x03 /* DW_OP_addr */ || e[0] == 0xa1 /* DW_OP_addrx */ || e[0] == 0xfb /* DW_OP_GNU_addr_index */)
}

// makeVar builds a Var from its DIE, with its location at the site.
func (b *Binary) makeVar(s Site, ft *funcTree, n *godwarf.Tree, depth int, scope string, inlined bool) Var {
	v := Var{Depth: depth, Scope: scope, Inlined: inlined, Kind: VarLocal}
	v.Name, _ = n.Val(dwarf.AttrName).(string)
	if n.Tag == dwarf.TagFormalParameter {
		v.Kind = VarParam
	}
	if l, ok := n.Val(dwarf.AttrDeclLine).(int64); ok {
		v.DeclLine = int(l)
	}
	v.Type = b.typeOf(n)
	v.Loc, v.Err = b.varLoc(s, ft, n, v.Name, v.Type)
	v.availBytes = b.bytesAvailable(s, ft, n, v.Type)
	if v.Kind == VarLocal && v.Loc.Kind != LocOptimizedOut && v.Loc.Fetch != nil &&
		v.Loc.Fetch.Start.Kind == SrcAddr && v.Loc.Kind == LocMemory {
		v.Kind = VarStatic
	}
	return v
}

// typeOf converts a DIE's DW_AT_type (void when absent or unreadable).
func (b *Binary) typeOf(n godwarf.Entry) *Type {
	off, ok := n.Val(dwarf.AttrType).(dwarf.Offset)
	if !ok {
		return b.types.conv(nil)
	}
	if rt, ok := b.refType(off); ok {
		return rt
	}
	u, _ := b.unitOf(off)
	b.mu.Lock()
	defer b.mu.Unlock()
	dt, err := b.dw.Type(off)
	if err != nil {
		return &Type{Kind: KindVoid, Name: "?", Spelling: "<unreadable type>"}
	}
	b.types.unit = u.start
	return b.types.conv(dt)
}

// varLoc computes a variable's location at the site.
func (b *Binary) varLoc(s Site, ft *funcTree, n godwarf.Entry, name string, t *Type) (loc Location, err error) {
	defer func() {
		if r := recover(); r != nil {
			loc, err = Location{Size: t.Size}, fmt.Errorf("%s: %s: %w: %v", siteLabel(s), name, ErrMalformed, r)
		}
	}()
	label := siteLabel(s)
	if cv := n.AttrField(dwarf.AttrConstValue); cv != nil {
		return constLoc(cv, t, label, name)
	}
	raw, ok, err := b.locOf(ft.cu, n, dwarf.AttrLocation)
	if err != nil {
		return Location{Size: t.Size}, fmt.Errorf("%s: %s: %w", label, name, err)
	}
	var expr []byte
	if ok {
		expr = raw.atFunc(s.Addr, s.EntryAddr)
	}
	if len(expr) == 0 {
		lines, other := b.availableLines(ft, raw, s.File)
		return Location{Size: t.Size}, &OptimizedOutError{Site: label, Var: name, Lines: lines, OtherLines: other, Line: s.Line,
			Here: b.lineProbesWith(ft, raw, s)}
	}
	if target, off, ok := implicitPointer(expr, b.order); ok {
		return Location{Size: t.Size}, &ImplicitPointerError{Site: label, Var: name, Target: target, Offset: off}
	}
	ctx := b.newEval(s, ft, label, name)
	loc, err = ctx.eval(expr, t.Size)
	if err != nil {
		return Location{Size: t.Size}, err
	}
	if loc.Kind == LocOptimizedOut {
		lines, other := b.availableLines(ft, raw, s.File)
		return loc, &OptimizedOutError{Site: label, Var: name, Lines: lines, OtherLines: other, Line: s.Line}
	}
	if b.beforeBody(ft, s.Addr) && frameRelative(loc) && !callerArea(loc) {
		// Unoptimised code stores parameters and locals in their frame
		// slots during the prologue; before that the slot holds garbage.
		return Location{Size: t.Size}, &OptimizedOutError{Site: label, Var: name,
			Reason: fmt.Sprintf("not yet stored in its stack slot: the prologue ends at %s+%#x", ft.name, ft.body-ft.entry)}
	}
	return loc, nil
}

// lineProbesWith lists, as FUNC+OFF probes, the other statement
// addresses of the site's line where raw locates the variable: a line
// compiled to several places may have it at some only.
func (b *Binary) lineProbesWith(ft *funcTree, raw rawLoc, s Site) []string {
	if s.Line == 0 || !raw.isList {
		return nil
	}
	if _, err := b.lines(ft.cu); err != nil {
		return nil
	}
	c := ft.cu
	var out []string
	seen := map[uint64]bool{s.Addr: true}
	for _, fr := range ft.root.Ranges {
		c.rowsIn(fr[0], fr[1], func(i int) {
			r := c.rows[i]
			if !r.stmt || r.line != s.Line || r.file != s.File || seen[r.addr] || len(raw.at(r.addr)) == 0 {
				return
			}
			seen[r.addr] = true
			if sym, ok := b.symbolAt(r.addr); ok {
				out = append(out, fmt.Sprintf("%s+%#x", sym.Name, r.addr-sym.Value))
			}
		})
	}
	return out
}

// beforeBody reports whether pc is in the prologue of unoptimised code.
func (b *Binary) beforeBody(ft *funcTree, pc uint64) bool {
	b.bodyInfo(ft)
	return !ft.opt && pc >= ft.entry && pc < ft.body
}

// callerArea reports a memory location at or above the CFA: a parameter
// passed on the stack (the 7th and later integer arguments), which the
// caller stored before the call, so it is valid from the first
// instruction on, prologue or not.
func callerArea(l Location) bool {
	if l.Kind != LocMemory || l.Fetch == nil || l.Fetch.Start.Kind != SrcCFA {
		return false
	}
	switch len(l.Fetch.Steps) {
	case 0:
		return true
	case 1:
		st := l.Fetch.Steps[0]
		return st.Op == OpAdd && st.Arg == nil && st.Imm >= 0
	}
	return false
}

// frameRelative reports a memory location addressed from the frame.
func frameRelative(l Location) bool {
	if l.Kind != LocMemory || l.Fetch == nil {
		return false
	}
	k, r := l.Fetch.Start.Kind, l.Fetch.Start.Reg
	return k == SrcCFA || k == SrcReg && (r == 6 || r == 7)
}

// newEval prepares the evaluator for one variable at a site.
func (b *Binary) newEval(s Site, ft *funcTree, label, name string) *evalCtx {
	ctx := &evalCtx{b: b, cu: ft.cu, pc: s.Addr, entryPC: s.EntryAddr}
	ctx.err = func(op, reason string) error {
		return &UnsupportedError{Site: label, Var: name, Op: op, Reason: reason}
	}
	ctx.regErr = func(reg int) error {
		if isVectorReg(reg) {
			return &UnsupportedError{Site: label, Var: name, Reg: regName(reg)}
		}
		return &UnsupportedError{Site: label, Var: name, Reg: regName(reg), Reason: "not in pt_regs"}
	}
	var fb *Fetch
	var fbErr error
	done := false
	ctx.frameBase = func() (*Fetch, error) {
		if done {
			return fb, fbErr
		}
		done = true
		fb, fbErr = b.frameBase(ctx, ft, s.Addr)
		return fb, fbErr
	}
	return ctx
}

// frameBase evaluates the function's DW_AT_frame_base at pc: CFA for gcc
// (DW_OP_call_frame_cfa), a register for clang (DW_OP_reg6/reg7).
func (b *Binary) frameBase(ctx *evalCtx, ft *funcTree, pc uint64) (*Fetch, error) {
	raw, ok, err := b.locOf(ft.cu, ft.root, dwarf.AttrFrameBase)
	if err != nil {
		return nil, ctx.err("DW_OP_fbreg", "frame base: "+err.Error())
	}
	if !ok {
		return nil, ctx.err("DW_OP_fbreg", "function has no DW_AT_frame_base")
	}
	expr := raw.at(pc)
	inner := *ctx
	inner.frameBase = func() (*Fetch, error) { return nil, ctx.err("DW_OP_fbreg", "recursive frame base") }
	loc, err := inner.eval(expr, 8)
	if err != nil {
		return nil, err
	}
	if loc.Kind != LocValue && loc.Kind != LocMemory {
		return nil, ctx.err("DW_OP_fbreg", "frame base not available here")
	}
	return b.rebaseFrame(ctx, ft, pc, loc.Fetch)
}

// rebaseFrame handles a register frame base (clang: rsp or rbp) before the
// prologue has set that register up. The register's value DWARF means is
// the one after the prologue; there the CFI says CFA = reg + k, so the
// frame base is CFA - k, and the CFA is known at every address.
func (b *Binary) rebaseFrame(ctx *evalCtx, ft *funcTree, pc uint64, fb *Fetch) (*Fetch, error) {
	if fb.Start.Kind != SrcReg || len(fb.Steps) > 1 || len(fb.Steps) == 1 && (fb.Steps[0].Op != OpAdd || fb.Steps[0].Arg != nil) {
		return fb, nil
	}
	pe := b.prologueEnd(ft)
	if pe == 0 || pc >= pe {
		return fb, nil
	}
	rule, err := b.cfaAt(pe)
	if err != nil || rule.Reg != fb.Start.Reg {
		return nil, ctx.err("DW_OP_fbreg", fmt.Sprintf("frame base %s is not set up before the end of the prologue", regName(fb.Start.Reg)))
	}
	here, err := ctx.cfa()
	if err != nil {
		return nil, err
	}
	var k int64
	if len(fb.Steps) == 1 {
		k = fb.Steps[0].Imm
	}
	return here.then(Step{Op: OpAdd, Imm: k - rule.Offset}), nil
}

// constLoc turns DW_AT_const_value into a constant location.
func constLoc(cv *dwarf.Field, t *Type, label, name string) (Location, error) {
	var v uint64
	switch x := cv.Val.(type) {
	case int64:
		v = uint64(x)
	case uint64:
		v = x
	case []byte:
		if len(x) > 8 {
			return constPieces(x, t), nil
		}
		for i := len(x) - 1; i >= 0; i-- {
			v = v<<8 | uint64(x[i])
		}
	case string:
		// A string constant (gcc's __PRETTY_FUNCTION__ of an assert it
		// proved never fails, with no copy left in .rodata): its bytes
		// and the terminating NUL, as gdb prints it.
		return constPieces(append([]byte(x), 0), t), nil
	default:
		return Location{Size: t.Size}, &UnsupportedError{Site: label, Var: name, Reason: fmt.Sprintf("DW_AT_const_value of class %v", cv.Class)}
	}
	return Location{Kind: LocValue, Fetch: constFetch(v), Size: t.Size}, nil
}

// constPieces is a constant wider than a register, as 8-byte constant
// pieces: its elements and members bind as constants, as narrower ones do.
func constPieces(b []byte, t *Type) Location {
	var ps []Piece
	for off := 0; off < len(b); off += 8 {
		n := min(8, len(b)-off)
		var v uint64
		for i := off + n - 1; i >= off; i-- {
			v = v<<8 | uint64(b[i])
		}
		ps = append(ps, Piece{Offset: off, Size: n, Loc: Location{Kind: LocValue, Fetch: constFetch(v), Size: n}})
	}
	return Location{Kind: LocPieces, Pieces: ps, Size: max(t.Size, len(b))}
}

// availableLines lists the lines of the function where a location list has
// a location: those of file (the site's source file) as numbers, those of
// other files (code inlined from headers) as "base.h:LINE".
func (b *Binary) availableLines(ft *funcTree, raw rawLoc, file string) ([]int, []string) {
	return b.linesWhere(ft, raw, file, nil)
}

// bytesAvailable returns a function listing the lines where bytes [off,
// off+size) of a variable have a location: a member of a struct split into
// pieces can be located where other members are optimized out.
func (b *Binary) bytesAvailable(s Site, ft *funcTree, n godwarf.Entry, t *Type) func(off, size int) ([]int, []string) {
	return func(off, size int) (lines []int, other []string) {
		defer func() {
			if recover() != nil {
				lines, other = nil, nil
			}
		}()
		if n.AttrField(dwarf.AttrConstValue) != nil {
			return nil, nil
		}
		raw, ok, err := b.locOf(ft.cu, n, dwarf.AttrLocation)
		if err != nil || !ok {
			return nil, nil
		}
		return b.linesWhere(ft, raw, s.File, func(e locRange) bool {
			es := s
			es.Addr = e.lo
			ctx := b.newEval(es, ft, "", "")
			loc, err := ctx.eval(e.expr, t.Size)
			// An expression bpfcc cannot evaluate still locates the
			// variable there (the diagnostic at that line will say why).
			return err != nil || locCovers(loc, off, size)
		})
	}
}

// locCovers reports whether a location holds every byte of [off, off+size).
func locCovers(l Location, off, size int) bool {
	switch l.Kind {
	case LocOptimizedOut:
		return false
	case LocPieces:
		for i := off; i < off+size; i++ {
			in := false
			for _, p := range l.Pieces {
				if p.Offset <= i && i < p.Offset+p.Size {
					in = p.Loc.Kind != LocOptimizedOut
					break
				}
			}
			if !in {
				return false
			}
		}
	}
	return true
}

// linesWhere lists the lines of the function covered by the location list
// entries that have an expression and that keep accepts (all when nil).
func (b *Binary) linesWhere(ft *funcTree, raw rawLoc, file string, keep func(locRange) bool) ([]int, []string) {
	if !raw.isList {
		return nil, nil
	}
	if _, err := b.lines(ft.cu); err != nil {
		return nil, nil
	}
	var rs [][2]uint64
	for _, e := range raw.list {
		if len(e.expr) > 0 && !e.dflt && (keep == nil || keep(e)) {
			for _, fr := range ft.root.Ranges {
				lo, hi := max(e.lo, fr[0]), min(e.hi, fr[1])
				if lo < hi {
					rs = append(rs, [2]uint64{lo, hi})
				}
			}
		}
	}
	return linesOfFile(ft.cu, rs, file)
}

// retval describes the return value at a return probe: rax for integer
// and pointer results.
func (b *Binary) retval(s Site, ft *funcTree) (Var, error) {
	v := Var{Name: "$retval", Kind: VarReturn, Scope: ft.name, Type: b.typeOf(ft.root)}
	label := siteLabel(s)
	switch {
	case v.Type.Kind == KindVoid:
		v.Err = &OptimizedOutError{Site: label, Var: v.Name}
	case v.Type.Float:
		v.Err = &UnsupportedError{Site: label, Var: v.Name, Reg: "xmm0"}
	case !v.Type.Scalar():
		v.Err = &UnsupportedError{Site: label, Var: v.Name, Reason: "is an aggregate returned by value"}
	default:
		v.Loc = Location{Kind: LocValue, Size: v.Type.Size, Fetch: &Fetch{Start: Source{Kind: SrcReg, Reg: 0, RegsOff: ptRegsOff[0]}}}
	}
	if v.Err != nil {
		v.Loc = Location{Size: v.Type.Size}
	}
	return v, nil
}

// implicitPointer parses a location that is one DW_OP_implicit_pointer
// (or GNU's): a pointer optimised away whose pointee is the variable at
// DIE target, off bytes in.
//
// (The reference is 4 bytes: 64-bit DWARF, with 8, is not produced for
// user-space programs by gcc or clang.)
func implicitPointer(expr []byte, order binary.ByteOrder) (target dwarf.Offset, off int64, ok bool) {
	if len(expr) == 0 || expr[0] != 0xa0 && expr[0] != 0xf2 {
		return 0, 0, false
	}
	r := &byteReader{data: expr[1:], order: order}
	target = dwarf.Offset(r.fixed(4))
	off = r.sleb()
	if r.err != nil || !r.done() {
		return 0, 0, false
	}
	return target, off, true
}
