// Package lower turns a type-checked C translation unit into bpfcc's IR. It
// applies C's semantics (promotions, conversions, extension, truncation),
// decides register versus stack placement of locals, lays out global data and
// map definitions, and diagnoses what BPF cannot express.
package lower

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"modernc.org/cc/v4"
	"modernc.org/token"

	"github.com/bpfcc/bpfcc/abi"
	"github.com/bpfcc/bpfcc/bind"
	"github.com/bpfcc/bpfcc/diag"
	"github.com/bpfcc/bpfcc/frontend"
	"github.com/bpfcc/bpfcc/ir"
)

// Options configure lowering.
type Options struct {
	OptLevel int
	CPU      int
	// Handlers binds probe handlers' extra parameters (bind.Bind's result).
	Handlers []bind.Handler
	// NoBuiltin is bpfcc.Options.NoBuiltin.
	NoBuiltin []string
	// C89 is set under -std=c89 and its like, where a return's value
	// may be missing (a warning in clang, an error from C99 on).
	C89 bool
}

// Lower builds the IR module of u. Warnings are returned beside the module.
func Lower(u *frontend.Unit, opts Options) (m *ir.Module, warnings diag.List, err error) {
	l := newLowerer(u, opts)
	defer func() {
		if r := recover(); r != nil {
			if b, ok := r.(bailout); ok {
				m, err = nil, b.l
				return
			}
			panic(r)
		}
	}()
	l.collect()
	l.linkLegacyMaps()
	l.externFuncRefs()
	l.lowerFuncs()
	l.checkRecursion()
	l.checkProgRefs()
	l.checkDataSections()
	l.finish()
	if l.diags.HasErrors() {
		return nil, l.diags.Warnings(), l.diags.Errors()
	}
	return l.m, l.diags.Warnings(), nil
}

func newLowerer(u *frontend.Unit, opts Options) *lowerer {
	l := &lowerer{
		u:           u,
		opts:        opts,
		m:           &ir.Module{File: u.File},
		globals:     map[*cc.Declarator]*global{},
		globalNames: map[string]*global{},
		funcs:       map[string]*funcInfo{},
		helpers:     map[*cc.Declarator]int64{},
		strs:        map[string]string{},
		names:       map[string]bool{},
		btf:         newBTFConv(),
		ksymFuncs:   map[string]bool{},
		pktLoads:    map[string]int{},

		dataFuncRefs:  map[string]*cc.Declarator{},
		linkerExterns: map[*cc.Declarator]*cc.InitDeclarator{},
	}
	l.btf.splitBits = l.splitBits
	l.btf.memberTags, l.btf.recordTags = fileMemberTags(l.u.AST.TranslationUnit)
	return l
}

// bailout stops lowering when too many errors have been reported.
type bailout struct{ l diag.List }

type lowerer struct {
	// arenaReported: an arena dereference was reported (once per unit).
	arenaReported bool
	u             *frontend.Unit
	opts          Options
	m             *ir.Module
	diags         diag.List

	globals map[*cc.Declarator]*global
	funcs   map[string]*funcInfo
	order   []*funcInfo
	helpers map[*cc.Declarator]int64
	strs    map[string]string
	nstr    int
	names   map[string]bool

	bound boundState
	// globalNames finds file-scope objects by name (tentative definitions).
	globalNames map[string]*global
	btf         *btfConv
	// ksymFuncs names the functions declared `extern ... __ksym`.
	ksymFuncs map[string]bool
	// pktLoads are the functions declared with clang's packet-load
	// intrinsics as their asm label, with the load size (see
	// llvmPacketLoad).
	pktLoads map[string]int
	// usedGPL lists GPL-only helpers called, for the license check.
	usedGPL []gplUse
	// nasm numbers asm statements, for %= in their labels.
	nasm int
	// progRefs are the functions named in program-array initialisers.
	progRefs []progRef
	// legacy are the maps defined in SEC("maps"), for linkLegacyMaps.
	legacy []*legacyDef
	// dataFuncRefs are the functions whose addresses initialise globals.
	dataFuncRefs map[string]*cc.Declarator
	// linkerExterns are the extern declarations of variables and maps
	// without .kconfig/.ksyms, which the BPF static linker resolves.
	linkerExterns map[*cc.Declarator]*cc.InitDeclarator
}

// progRef is one `[i] = &prog` in a program array's .values.
type progRef struct {
	fn, mapName string
	pos         ir.Pos
}

// checkProgRefs reports program-array entries that are not programs defined
// in this file: libbpf resolves them only against the object's programs.
func (l *lowerer) checkProgRefs() {
	for _, r := range l.progRefs {
		fi := l.funcs[r.fn]
		if fi == nil || fi.def == nil || fi.f == nil || fi.f.Section == "" {
			l.diags = append(l.diags, diag.Diagnostic{File: r.pos.File, Line: r.pos.Line, Col: r.pos.Col,
				Msg: fmt.Sprintf("map %q: %q is not a program defined in this file (a function with SEC(...)); only programs can fill a program array", r.mapName, r.fn)})
		}
	}
}

type gplUse struct {
	name string
	pos  token.Position
}

// global is a file-scope (or static local) object.
type global struct {
	name  string
	typ   cc.Type
	isMap bool
	g     *ir.Global
}

// funcInfo is a function defined in the unit.
type funcInfo struct {
	name  string
	def   *cc.FunctionDefinition
	decl  *cc.Declarator
	f     *ir.Func
	calls map[string]token.Position
	// direct are the functions of calls it really calls, not only refers
	// to as a callback (a timer callback that re-arms itself is not
	// recursion): the edges checkRecursion follows.
	direct map[string]token.Position
	// sites are the programs a bound handler became.
	sites []*ir.Func
	// usesConstP: the body asks __builtin_constant_p of a non-constant
	// (see constp.go).
	usesConstP bool
}

func (l *lowerer) pos(n cc.Node) ir.Pos {
	if n == nil {
		return ir.Pos{}
	}
	p := n.Position()
	return ir.Pos{File: p.Filename, Line: p.Line, Col: p.Column}
}

func (l *lowerer) errorf(n cc.Node, format string, args ...any) {
	d := diag.Diagnostic{Msg: fmt.Sprintf(format, args...)}
	if n != nil {
		p := n.Position()
		d.File, d.Line, d.Col = p.Filename, p.Line, p.Column
	}
	if d.File == "" {
		d.File = l.u.File
	}
	l.diags = append(l.diags, d)
	if len(l.diags.Errors()) >= diag.MaxErrors {
		panic(bailout{l.diags})
	}
}

func (l *lowerer) warnf(n cc.Node, format string, args ...any) {
	d := diag.Diagnostic{Severity: diag.Warning, Msg: fmt.Sprintf(format, args...)}
	if n != nil {
		p := n.Position()
		d.File, d.Line, d.Col = p.Filename, p.Line, p.Column
	}
	l.diags = append(l.diags, d)
}

// collect walks the file scope: functions, helpers, maps, globals, license.
func (l *lowerer) collect() {
	for n := l.u.AST.TranslationUnit; n != nil; n = n.TranslationUnit {
		ed := n.ExternalDeclaration
		if ed == nil {
			continue
		}
		switch ed.Case {
		case cc.ExternalDeclarationFuncDef:
			l.collectFunc(ed.FunctionDefinition)
		case cc.ExternalDeclarationDecl:
			l.collectDecl(ed.Declaration, nil)
		case cc.ExternalDeclarationAsmStmt:
			l.errorf(ed, "file-scope inline asm is not supported")
		}
	}
}

func (l *lowerer) collectFunc(fd *cc.FunctionDefinition) {
	d := fd.Declarator
	name := d.Name()
	ft, ok := d.Type().(*cc.FunctionType)
	if !ok {
		return
	}
	// Structs and unions passed or returned by value travel as pointers to
	// copies (see byValue); a program's own signature cannot change.
	attrs := d.Type().Attributes()
	static := d.Linkage() != cc.External || d.IsStatic()
	// A static always-inline function is never a program: libbpf's
	// BPF_KPROBE-style macros give the inner function the program's type
	// through typeof(), section attribute included.
	inlineOnly := alwaysInlineStatic(d)
	program := sectionOf(attrs, nil) != "" && !inlineOnly
	// More than 5 parameters are fine in a function every call inlines;
	// codegen refuses what remains a BPF call (see checkArgRegs in codegen).
	if n := len(ft.Parameters()); n > ir.MaxArgs && !l.isHandler(name) && (!static || hasAttr(attrs, "noinline")) {
		l.errorf(d, "function %q has %d parameters; BPF passes at most 5 arguments in registers", name, n)
	}
	if isAggregate(ft.Result()) {
		if program {
			l.errorf(d, "program %q returns a %s; BPF programs return an integer", name, typeName(ft.Result()))
		} else if n := len(ft.Parameters()); n >= 5 && (!static || hasAttr(attrs, "noinline")) {
			// A static one is inlined at every call, as one of more
			// than 5 parameters (retina's _ct_should_report_packet).
			l.errorf(d, "function %q returns a %s by value, which takes one of the 5 argument registers, and has %d parameters", name, typeName(ft.Result()), n)
		}
	}
	for _, p := range ft.Parameters() {
		if isAggregate(p.Type()) && program && !l.isHandler(name) {
			l.errorf(p, "parameter %q of program %q is a %s passed by value; programs take a context pointer", p.Name(), name, typeName(p.Type()))
		}
		if isFloat(p.Type()) {
			l.errorf(p, "floating point is not supported in BPF programs")
		}
	}
	if prev, dup := l.funcs[name]; dup {
		// cc accepts a second definition; clang does not. (GNU's extern
		// inline definition may be followed by the real one.)
		if pd := prev.decl; pd != nil && !(pd.IsExtern() && pd.IsInline()) {
			p := pd.Position()
			l.errorf(d, "redefinition of %q (first defined at %s:%d)", name, filepath.Base(p.Filename), p.Line)
		}
		return
	}
	fi := &funcInfo{name: name, def: fd, decl: d, calls: map[string]token.Position{}, direct: map[string]token.Position{}, usesConstP: usesLateConstP(fd)}
	f := &ir.Func{Name: name, Pos: l.pos(d), Static: static}
	f.Hidden = !f.Static && isHidden(d, nil)
	f.Weak = !f.Static && (hasAttr(attrs, "weak") || attrs != nil && attrs.Weak())
	f.Returns = ft.Result().Kind() != cc.Void && !isAggregate(ft.Result())
	// An empty format checker (sched_ext's ___scx_bpf_bstr_format_checker)
	// is inlined away; one that stays a BPF function is an error in
	// codegen (checkArgRegs).
	f.Variadic = ft.IsVariadic()
	if sec := sectionOf(attrs, nil); program {
		f.Section = sec
		if _, known := abi.ParseSection(sec); !known {
			// As with clang, the section is the program's own business:
			// a loader may know it (custom handlers, an explicit type).
			l.warnf(d, "unknown program section %q for %q; libbpf derives no program type from it, so the loader must set one", sec, name)
		}
	}
	if attrs.AlwaysInline() || hasAttr(attrs, "always_inline") {
		f.Inline = true
	}
	if hasAttr(attrs, "noinline") {
		f.NoInline = true
	}
	if hasAttr(attrs, "naked") {
		f.Naked, f.NoInline = true, true
	}
	fi.f = f
	l.funcs[name] = fi
	l.order = append(l.order, fi)
}

// alwaysInlineStatic reports a static inline or always-inline function:
// never a program, even with a section attribute (BPF_PROG-style macros
// give the inner function the program's type through typeof()).
func alwaysInlineStatic(d *cc.Declarator) bool {
	attrs := d.Type().Attributes()
	static := d.Linkage() != cc.External || d.IsStatic()
	return static && (d.IsInline() || attrs != nil && (attrs.AlwaysInline() || hasAttr(attrs, "always_inline")))
}

// collectDecl handles a declaration at file scope (fn == nil) or a static
// local inside fn.
func (l *lowerer) collectDecl(decl *cc.Declaration, fn *fnLowerer) {
	if decl.Case != cc.DeclarationDecl {
		return
	}
	for list := decl.InitDeclaratorList; list != nil; list = list.InitDeclaratorList {
		id := list.InitDeclarator
		d := id.Declarator
		if d == nil || d.IsTypename() {
			continue
		}
		t := d.Type()
		if t.Kind() == cc.Function {
			// A prototype; `extern ... __ksym` declares a kernel function.
			if sectionOf(t.Attributes(), id.AttributeSpecifierList) == ".ksyms" {
				l.ksymFuncs[d.Name()] = true
			}
			if n := llvmPacketLoad(id.Asm); n > 0 {
				l.pktLoads[d.Name()] = n
			}
			continue
		}
		if hid, ok := helperID(d, id); ok {
			l.helpers[d] = hid
			continue
		}
		if d.IsExtern() && id.Initializer == nil {
			if fn == nil {
				l.externVar(d, id)
			}
			continue
		}
		if isFloat(t) || (t.Kind() == cc.Array && isFloat(elemType(t))) {
			l.errorf(d, "floating point is not supported in BPF programs")
			continue
		}
		sec := sectionOf(d.Type().Attributes(), id.AttributeSpecifierList)
		if sec == "" && t.Kind() == cc.Ptr {
			// cc moves the attributes of the specifiers of a pointer
			// variable (`SEC(".bss.A") static struct s __kptr *p`) to the
			// pointed-to type.
			sec = attrString(elemType(t).Attributes(), "section")
		}
		name := d.Name()
		static := d.Linkage() != cc.External
		if fn != nil {
			name = l.uniqueName(fn.fi.name + "." + name)
			static = true
		}
		switch {
		case sec == ".maps":
			l.btfMap(d, id, name, static)
		case sec == "maps" || strings.HasPrefix(sec, "maps/"):
			// "maps/NAME": gobpf's and bcc's legacy sections, which
			// cilium/ebpf reads as "maps" too.
			l.legacyMap(d, id, name, static)
		case name == "_license" || sec == "license":
			l.license(d, id)
		case sec == "version":
			l.version(d, id)
		case sec == "config":
			// Probe bindings: read by bind (frontend.Describe), not
			// emitted; only checked here.
			l.stringInit(d, id)
		default:
			l.dataVar(d, id, name, static, sec)
		}
		l.tagVar(d, name, declTags(d.Type().Attributes(), id.AttributeSpecifierList))
		if a := d.Type().Attributes(); hasAttr(a, "weak") || a != nil && a.Weak() || listHasAttr(id.AttributeSpecifierList, "weak") {
			l.weakVar(d, name)
		}
	}
}

// weakVar marks the map or global named name __weak: an STB_WEAK symbol,
// which another object's definition overrides in the BPF static linker.
func (l *lowerer) weakVar(d *cc.Declarator, name string) {
	for _, mp := range l.m.Maps {
		if mp.Name == name {
			mp.Weak = true
			return
		}
	}
	if g := l.globals[d]; g != nil && g.g != nil {
		g.g.Weak = true
	}
}

// tagVar records btf_decl_tag attributes on the map or global named name.
func (l *lowerer) tagVar(d *cc.Declarator, name string, tags []string) {
	if len(tags) == 0 {
		return
	}
	for _, mp := range l.m.Maps {
		if mp.Name == name {
			mp.Tags = tags
			return
		}
	}
	if g := l.globals[d]; g != nil && g.g != nil {
		g.g.Tags = tags
	}
}

// declTags returns the values of every btf_decl_tag("...") attribute, in
// order (clang emits one BTF DECL_TAG each).
func declTags(a *cc.Attributes, list *cc.AttributeSpecifierList) []string {
	var tags []string
	if a != nil {
		for _, n := range []string{"btf_decl_tag", "__btf_decl_tag__"} {
			for _, v := range a.AttrValue(n) {
				if s, ok := v.(cc.StringValue); ok {
					tags = append(tags, strings.TrimRight(string(s), "\x00"))
				}
			}
		}
	}
	for ; list != nil; list = list.AttributeSpecifierList {
		if as := list.AttributeSpecifier; as != nil {
			for vl := as.AttributeValueList; vl != nil; vl = vl.AttributeValueList {
				av := vl.AttributeValue
				if av == nil || strings.Trim(av.Token.SrcStr(), "_") != "btf_decl_tag" || av.ArgumentExpressionList == nil {
					continue
				}
				if s, ok := attrArgString(av.ArgumentExpressionList.AssignmentExpression); ok && !slices.Contains(tags, s) {
					tags = append(tags, s)
				}
			}
		}
	}
	return tags
}

// externVar declares a variable the loader provides: __kconfig (section
// ".kconfig": LINUX_KERNEL_VERSION, CONFIG_*) or __ksym (".ksyms", a kernel
// symbol's address). Other externs are diagnosed where they are used.
func (l *lowerer) externVar(d *cc.Declarator, id *cc.InitDeclarator) {
	attrs := d.Type().Attributes()
	sec := sectionOf(attrs, id.AttributeSpecifierList)
	if sec != ".kconfig" && sec != ".ksyms" {
		// Data another object defines, for the BPF static linker:
		// created when the code uses it, unless the file defines it.
		l.linkerExterns[d] = id
		return
	}
	if _, ok := l.globals[d]; ok {
		return
	}
	if prev := l.globalNames[d.Name()]; prev != nil && prev.g != nil && prev.g.Extern {
		l.globals[d] = prev // declared again
		return
	}
	t := d.Type()
	size := typeSize(t)
	if size == 0 && sec == ".kconfig" {
		l.errorf(d, "extern %s variable %q has incomplete type %s", sec, d.Name(), t)
		return
	}
	weak := hasAttr(attrs, "weak") || attrs.Weak() || listHasAttr(id.AttributeSpecifierList, "weak")
	g := &ir.Global{Name: d.Name(), Section: sec, Size: int(size), Align: align(t), BTF: l.btf.typ(t), Pos: l.pos(d), Extern: true, Weak: weak}
	l.m.Globals = append(l.m.Globals, g)
	l.globals[d] = &global{name: g.Name, typ: t, g: g}
	l.globalNames[g.Name] = l.globals[d]
}

// listHasAttr reports whether an attribute list names attribute name.
func listHasAttr(list *cc.AttributeSpecifierList, name string) bool {
	for ; list != nil; list = list.AttributeSpecifierList {
		if as := list.AttributeSpecifier; as != nil {
			for vl := as.AttributeValueList; vl != nil; vl = vl.AttributeValueList {
				if av := vl.AttributeValue; av != nil && strings.Trim(av.Token.SrcStr(), "_") == name {
					return true
				}
			}
		}
	}
	return false
}

// finish orders module contents deterministically and runs module checks.
func (l *lowerer) finish() {
	if len(l.usedGPL) > 0 && !gplCompatible(l.m.License) {
		u := l.usedGPL[0]
		// A warning, as clang compiles it: the kernel refuses to load
		// it, but a loader may set the license (cilium/ebpf's
		// ProgramSpec.License), and an object without one may be
		// linked with one that has it (retsnoop's mass_attach.bpf.c,
		// linked by bpftool gen object).
		msg := fmt.Sprintf("helper %s is GPL-only but the program's license is %q: the kernel refuses to load it; add char LICENSE[] SEC(\"license\") = \"GPL\";", u.name, l.m.License)
		if l.m.License == "" {
			msg = fmt.Sprintf("helper %s is GPL-only and this file declares no license: unless it is linked with an object that declares a GPL-compatible one, the kernel refuses to load it (add char LICENSE[] SEC(\"license\") = \"GPL\";)", u.name)
		}
		d := diag.Diagnostic{Severity: diag.Warning, File: u.pos.Filename, Line: u.pos.Line, Col: u.pos.Column, Msg: msg}
		l.diags = append(l.diags, d)
	}
	l.dropUnusedKernelExterns()
}

// dropUnusedKernelExterns removes the __kconfig and __ksym variables no
// code or data refers to, as clang emits no unused declaration: libbpf
// resolves (and cilium/ebpf refuses) a typed __ksym however unused, and
// an unused __kconfig one the running kernel may not have.
func (l *lowerer) dropUnusedKernelExterns() {
	used := map[string]bool{}
	for _, f := range l.m.Funcs {
		for _, b := range f.Blocks {
			for _, in := range b.Instrs {
				used[in.Sym] = true
				if in.Asm == nil {
					continue
				}
				for _, op := range in.Asm.Operands {
					used[op.Sym] = true
				}
				for _, ai := range in.Asm.Insns {
					used[ai.Reference()] = true
				}
			}
		}
	}
	for _, g := range l.m.Globals {
		for _, r := range g.Relocs {
			used[r.Sym] = true
		}
	}
	l.m.Globals = slices.DeleteFunc(l.m.Globals, func(g *ir.Global) bool {
		return g.Extern && (g.Section == ".kconfig" || g.Section == ".ksyms") && !used[g.Name]
	})
}

// sectionOf returns the section attribute of a function type's attributes or
// a variable's attribute list.
func sectionOf(a *cc.Attributes, list *cc.AttributeSpecifierList) string {
	return frontend.SectionOf(a, list)
}

func attrString(a *cc.Attributes, name string) string {
	if a == nil {
		return ""
	}
	for _, n := range []string{name, "__" + name + "__"} {
		for _, v := range a.AttrValue(n) {
			if s, ok := v.(cc.StringValue); ok {
				return strings.TrimRight(string(s), "\x00")
			}
		}
	}
	return ""
}

// isHidden reports visibility("hidden") on a declaration.
func isHidden(d *cc.Declarator, list *cc.AttributeSpecifierList) bool {
	if a := d.Type().Attributes(); a != nil && a.Visibility() == "hidden" {
		return true
	}
	for ; list != nil; list = list.AttributeSpecifierList {
		if as := list.AttributeSpecifier; as != nil {
			for vl := as.AttributeValueList; vl != nil; vl = vl.AttributeValueList {
				av := vl.AttributeValue
				if av == nil || strings.Trim(av.Token.SrcStr(), "_") != "visibility" || av.ArgumentExpressionList == nil {
					continue
				}
				if v, ok := av.ArgumentExpressionList.AssignmentExpression.Value().(cc.StringValue); ok && strings.TrimRight(string(v), "\x00") == "hidden" {
					return true
				}
			}
		}
	}
	return false
}

func hasAttr(a *cc.Attributes, name string) bool {
	return a != nil && (a.IsAttrSet(name) || a.IsAttrSet("__"+name+"__"))
}

// helperID recognises libbpf's helper declarations:
// static long (*name)(...) = (void *) ID;
func helperID(d *cc.Declarator, id *cc.InitDeclarator) (int64, bool) {
	t := d.Type()
	if t.Kind() != cc.Ptr || elemType(t).Kind() != cc.Function || id.Initializer == nil {
		return 0, false
	}
	ini := id.Initializer
	if ini.Case != cc.InitializerExpr || ini.AssignmentExpression == nil {
		return 0, false
	}
	switch v := ini.AssignmentExpression.Value().(type) {
	case cc.Int64Value:
		return int64(v), true
	case cc.UInt64Value:
		return int64(v), true
	}
	return 0, false
}

// uniqueName returns name, or name.N when a static local of that name
// already exists (libbpf's bpf_printk declares ____fmt at every call).
func (l *lowerer) uniqueName(name string) string {
	n := name
	for i := 1; l.names[n]; i++ {
		n = fmt.Sprintf("%s.%d", name, i)
	}
	l.names[n] = true
	return n
}

// isHandler reports whether name is a bound probe handler (its extra
// parameters are fetched, not passed in registers).
func (l *lowerer) isHandler(name string) bool {
	for _, h := range l.opts.Handlers {
		if h.Name == name {
			return true
		}
	}
	return false
}

// attrArgString is an attribute's string argument: its value, or for the
// attribute lists cc leaves unchecked (parameters'), the literal's text.
func attrArgString(e cc.ExpressionNode) (string, bool) {
	if v, ok := e.Value().(cc.StringValue); ok {
		return strings.TrimRight(string(v), "\x00"), true
	}
	if p, ok := e.(*cc.PrimaryExpression); ok && p.Case == cc.PrimaryExpressionString {
		if s, err := strconv.Unquote(p.Token.SrcStr()); err == nil {
			return s, true
		}
	}
	return "", false
}
