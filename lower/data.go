package lower

import (
	"encoding/binary"
	"fmt"
	"strings"

	"github.com/cilium/ebpf/btf"
	"modernc.org/cc/v4"

	"github.com/bpfcc/bpfcc/diag"
	"github.com/bpfcc/bpfcc/ir"
)

// MaxGlobalSize bounds one global variable: its contents are held in
// memory while compiling and written to the object.
const MaxGlobalSize = 256 << 20

// dataVar places a global or static variable in .data, .rodata or .bss the
// way clang does: const → .rodata, non-zero initializer → .data, else .bss;
// an explicit SEC() wins.
func (l *lowerer) dataVar(d *cc.Declarator, id *cc.InitDeclarator, name string, static bool, sec string) {
	t := d.Type()
	size := typeSize(t)
	if size == 0 && t.Kind() != cc.Struct {
		l.errorf(d, "variable %q has incomplete type %s", d.Name(), t)
		return
	}
	if size > MaxGlobalSize {
		l.errorf(d, "variable %q is %d bytes; bpfcc limits global data to %d bytes (it lives in one map value, loaded into the kernel)", d.Name(), size, MaxGlobalSize)
		return
	}
	// Without an initializer the contents are zeros, allocated only if the
	// variable lands outside .bss (a 16 MB .bss array costs nothing).
	img := &dataImage{}
	if id.Initializer != nil {
		img.buf = make([]byte, size)
		l.constInit(img, 0, t, id.Initializer)
	}
	buf := img.buf
	if reservedDataSection(sec) {
		l.errorf(d, "variable %q in section %q: the section is reserved for the loader's own contents (maps go in \".maps\")", d.Name(), sec)
		return
	}
	if sec == "" {
		switch {
		case d.IsConst() || isConstType(t):
			sec = ".rodata"
		case !allZero(buf) || len(img.relocs) > 0:
			sec = ".data"
		default:
			sec = ".bss"
		}
	}
	if len(img.relocs) > 0 && isBSSSection(sec) {
		l.errorf(d, "variable %q in section %q holds addresses; a .bss section has no contents to put them in", d.Name(), sec)
		return
	}
	if prev := l.globalNames[name]; prev != nil && prev.g.Static == static {
		// A tentative definition repeated (int x; int x = 1;): one object,
		// the initialised definition wins.
		l.globals[d] = prev
		if id.Initializer != nil && !strings.HasPrefix(prev.g.Section, ".rodata") {
			prev.g.Init, prev.g.Relocs = buf, img.relocs
			if strings.HasPrefix(prev.g.Section, ".bss") && (!allZero(buf) || len(img.relocs) > 0) {
				prev.g.Section = ".data"
			}
		}
		return
	}
	g := &ir.Global{Name: name, Section: sec, Static: static, Size: int(size), Align: align(t), BTF: l.btf.typ(t), Pos: l.pos(d)}
	g.Hidden = !static && isHidden(d, id.AttributeSpecifierList)
	// Constant data may be folded into the code; "const volatile" data
	// (set by the loader before the program runs) may not.
	g.Const = strings.HasPrefix(sec, ".rodata") && (d.IsConst() || isConstType(t)) && !d.IsVolatile() && !isVolatileType(t)
	if a := d.Type().Attributes(); a != nil && a.Aligned() > 0 {
		g.Align = max(g.Align, int(a.Aligned()))
	}
	if !isBSSSection(sec) {
		if buf == nil {
			buf = make([]byte, size)
		}
		g.Init, g.Relocs = buf, img.relocs
	}
	gl := &global{name: name, typ: t, g: g}
	l.globals[d] = gl
	if !strings.Contains(name, ".") { // static locals are function.name
		l.globalNames[name] = gl
	}
	l.m.Globals = append(l.m.Globals, g)
}

func isConstType(t cc.Type) bool {
	if t.Kind() == cc.Array {
		// cc reports the element of `const char *a[]` as a const
		// pointer: a pointer element's qualifiers are left to the
		// declarator's IsConst, which gets them right.
		if e := elemType(t); !isPtr(e) && e.Attributes() != nil && e.Attributes().IsConst() {
			return true
		}
	}
	a := t.Attributes()
	return a != nil && a.IsConst()
}

// isVolatileType reports a volatile-qualified type or array element type.
func isVolatileType(t cc.Type) bool {
	for t != nil {
		if a := t.Attributes(); a != nil && a.IsVolatile() {
			return true
		}
		if t.Kind() != cc.Array {
			return false
		}
		t = elemType(t)
	}
	return false
}

func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

// reservedDataSection reports section names a variable may not use: the
// loaders read them as maps, license, externs or debug information (the
// exact "license", "version" and "maps" are lowered as such before this;
// longer names starting so are refused as the ELF writer refuses them).
func reservedDataSection(sec string) bool {
	switch sec {
	case "", ".data", ".rodata", ".bss":
		return false
	case ".text", ".kconfig", ".ksyms", ".symtab", ".strtab", ".shstrtab":
		return true
	}
	for _, p := range []string{"license", "version", "maps", ".rel", ".BTF", ".debug"} {
		if strings.HasPrefix(sec, p) {
			return true
		}
	}
	return false
}

// isBSSSection reports a section of zero-initialised data without file
// contents (clang's rule: the name says .bss).
func isBSSSection(sec string) bool { return sec == ".bss" || strings.HasPrefix(sec, ".bss.") }

// constInit evaluates a static initializer into img at off.
func (l *lowerer) constInit(img *dataImage, off int64, t cc.Type, ini *cc.Initializer) {
	if ini.Case == cc.InitializerExpr {
		l.constLeaf(img, off, t, nil, ini.AssignmentExpression)
		return
	}
	if convertible(t) {
		if list := ini.InitializerList; list != nil && list.Initializer != nil {
			l.constInit(img, off, t, list.Initializer)
		}
		return
	}
	l.constList(img, off, ini.InitializerList)
}

// constList evaluates the braced initializer list of an aggregate at off.
func (l *lowerer) constList(img *dataImage, off int64, list *cc.InitializerList) {
	for _, x := range initLeaves(list) {
		esz := typeSize(x.t)
		if x.reset {
			img.clearRange(off+x.off, off+x.off+esz)
			continue
		}
		for k := int64(0); k < x.n; k++ {
			l.constLeaf(img, off+x.off+k*esz, x.t, x.field, x.e)
		}
	}
}

// stringBytes is a string literal's value as the bytes of its array: wide
// (L"") literals as little-endian units of wchar_t's size.
func stringBytes(v cc.Value) ([]byte, bool) {
	switch s := v.(type) {
	case cc.StringValue:
		return []byte(s), true
	case cc.UTF16StringValue:
		b := make([]byte, 0, 2*len(s))
		for _, u := range s {
			b = binary.LittleEndian.AppendUint16(b, u)
		}
		return b, true
	case cc.UTF32StringValue:
		b := make([]byte, 0, 4*len(s))
		for _, r := range s {
			b = binary.LittleEndian.AppendUint32(b, uint32(r))
		}
		return b, true
	}
	return nil, false
}

func (l *lowerer) constLeaf(img *dataImage, off int64, t cc.Type, f *cc.Field, e cc.ExpressionNode) {
	buf := img.buf
	if s, ok := stringBytes(e.Value()); ok && t.Kind() == cc.Array {
		n := min(int64(len(s)), typeSize(t))
		copy(buf[off:off+n], s)
		return
	}
	if cl, ok := unwrap(e).(*cc.PostfixExpression); ok && cl.Case == cc.PostfixExpressionComplit && isAggregate(t) {
		// A compound literal of the member's type: its initializer
		// list, in place.
		img.clearRange(off, off+typeSize(t))
		l.constList(img, off, cl.InitializerList)
		return
	}
	if (isPtr(t) || scalarSize(t) == 8) && (f == nil || !f.IsBitfield()) {
		// Before staticInt: cc gives &"str"[i] the value of the char.
		if sym, addend, isAddr := l.addrConst(e); isAddr {
			img.setReloc(off, sym, addend)
			return
		}
	}
	c, ok := l.staticInt(e)
	if !ok {
		if isFloat(t) || isFloat(e.Type()) {
			l.errorf(e, "floating point is not supported in BPF programs")
			return
		}
		l.errorf(e, "initializer of a global must be a constant or the address of a function or of an object with static storage")
		return
	}
	if n := l.splitBits(f); n > 0 {
		putWideBits(buf, off, wideBitOf(f, n), uint64(c))
		return
	}
	if f != nil && f.IsBitfield() {
		unit := f.AccessBytes()
		var cur uint64
		for i := int64(0); i < unit; i++ {
			cur |= uint64(buf[off+i]) << (8 * i)
		}
		mask := uint64(1)<<uint(f.ValueBits()) - 1
		cur &^= mask << uint(f.OffsetBits())
		cur |= (uint64(c) & mask) << uint(f.OffsetBits())
		putInt(buf, off, unit, int64(cur))
		return
	}
	putInt(buf, off, int64(scalarSize(t)), truncate(c, t))
}

// stringLiteral interns a string literal as a static .rodata object.
func (l *lowerer) stringLiteral(x *cc.PrimaryExpression) string {
	s, _ := x.Value().(cc.StringValue)
	return l.internString(string(s))
}

// internString returns the static .rodata object holding key (NUL added).
func (l *lowerer) internString(key string) string {
	if name, ok := l.strs[key]; ok {
		return name
	}
	name := fmt.Sprintf(".str.%d", l.nstr)
	l.nstr++
	b := []byte(key)
	if len(b) == 0 || b[len(b)-1] != 0 {
		b = append(b, 0)
	}
	arr := &btf.Array{Index: l.btf.intType("__ARRAY_SIZE_TYPE__", 4, btf.Unsigned), Type: l.btf.intType("char", 1, btf.Signed), Nelems: uint32(len(b))}
	g := &ir.Global{Name: name, Section: ".rodata", Static: true, Size: len(b), Align: 1, Init: b, BTF: &btf.Const{Type: arr}, Const: true}
	l.m.Globals = append(l.m.Globals, g)
	l.strs[key] = name
	return name
}

// stringInit returns a char array variable's string initializer.
func (l *lowerer) stringInit(d *cc.Declarator, id *cc.InitDeclarator) string {
	if id.Initializer == nil || id.Initializer.Case != cc.InitializerExpr {
		l.errorf(d, "%q must be initialised with a string literal", d.Name())
		return ""
	}
	s, ok := id.Initializer.AssignmentExpression.Value().(cc.StringValue)
	if !ok {
		l.errorf(d, "%q must be initialised with a string literal", d.Name())
		return ""
	}
	return strings.TrimRight(string(s), "\x00")
}

func (l *lowerer) license(d *cc.Declarator, id *cc.InitDeclarator) {
	l.m.License = l.stringInit(d, id)
}

func (l *lowerer) version(d *cc.Declarator, id *cc.InitDeclarator) {
	if id.Initializer == nil || id.Initializer.Case != cc.InitializerExpr {
		l.errorf(d, "version must be initialised with an integer")
		return
	}
	v, ok := constValue(id.Initializer.AssignmentExpression)
	if !ok {
		l.errorf(d, "version must be an integer constant")
		return
	}
	l.m.Version, l.m.HasVersion = uint32(v), true
}

// programArrayValues gives a program array's `values` member as an array of
// pointers straight to the function prototype: __array(values, fn_t) with a
// typedef'd function type points at the typedef (clang's BTF too), which
// libbpf skips but cilium/ebpf, and so --load, rejects.
func programArrayValues(t btf.Type) btf.Type {
	arr, ok := t.(*btf.Array)
	if !ok {
		return t
	}
	ptr, ok := arr.Type.(*btf.Pointer)
	if !ok {
		return t
	}
	fp, ok := btf.UnderlyingType(ptr.Target).(*btf.FuncProto)
	if !ok || fp == ptr.Target {
		return t
	}
	return &btf.Array{Type: &btf.Pointer{Target: fp}, Index: arr.Index, Nelems: arr.Nelems}
}

// btfMap records a BTF-defined map (struct {...} name SEC(".maps")).
func (l *lowerer) btfMap(d *cc.Declarator, id *cc.InitDeclarator, name string, static bool) {
	t := d.Type()
	bt, ok := l.btf.typ(t).(*btf.Struct)
	if !ok {
		if td, isTD := l.btf.typ(t).(*btf.Typedef); isTD {
			bt, ok = btf.UnderlyingType(td).(*btf.Struct)
		}
	}
	if !ok {
		l.errorf(d, "map %q in SEC(\".maps\") must be a struct", d.Name())
		return
	}
	has := map[string]bool{}
	for i, m := range bt.Members {
		if m.Name == "values" {
			bt.Members[i].Type = programArrayValues(m.Type)
		}
		if has[m.Name] {
			l.errorf(d, "map %q sets %q twice", d.Name(), m.Name)
			return
		}
		has[m.Name] = true
		if m.Name == "key" || m.Name == "value" {
			p, ok := btf.UnderlyingType(m.Type).(*btf.Pointer)
			if !ok {
				l.errorf(d, "map %q: %s must be declared with __type(%s, T)", d.Name(), m.Name, m.Name)
				return
			}
			if n, err := btf.Sizeof(p.Target); err != nil || n == 0 {
				l.errorf(d, "map %q: the %s type has no size (incomplete or void)", d.Name(), m.Name)
				return
			}
		}
	}
	for _, pair := range [][2]string{{"key", "key_size"}, {"value", "value_size"}} {
		if has[pair[0]] && has[pair[1]] {
			l.errorf(d, "map %q gives both %s and %s; use one (__type(%s, T) or __uint(%s, N))", d.Name(), pair[0], pair[1], pair[0], pair[1])
			return
		}
	}
	for _, m := range bt.Members {
		if !mapMembers[m.Name] {
			l.errorf(d, "map %q has member %q, which is not a map attribute (type, key, value, key_size, value_size, max_entries, map_flags, numa_node, pinning, map_extra, values)", d.Name(), m.Name)
			return
		}
	}
	mp := &ir.Map{Name: name, Static: static, BTF: bt, Pos: l.pos(d)}
	if id != nil && id.Initializer != nil && id.Initializer.Case == cc.InitializerInitList {
		// Map-in-map and prog-array initialisers: .values = { [i] = &map }.
		for _, x := range leaves(id.Initializer.InitializerList, nil) {
			if pe := ident(stripAddr(x.e)); pe != nil {
				if g, ok := l.globals[declOf(pe)]; ok && g.isMap {
					mp.Inner = append(mp.Inner, ir.MapInit{Off: int(x.off), Sym: g.name})
					continue
				}
				if fd := declOf(pe); fd != nil && fd.Type().Kind() == cc.Function {
					// A tail-call table entry; checkProgRefs makes sure it
					// names a program once all functions are known.
					mp.Inner = append(mp.Inner, ir.MapInit{Off: int(x.off), Sym: fd.Name()})
					l.progRefs = append(l.progRefs, progRef{fn: fd.Name(), mapName: d.Name(), pos: l.pos(x.e)})
					continue
				}
			}
			if c, ok := constValue(x.e); ok && c == 0 {
				continue
			}
			l.errorf(x.e, "map %q: only pointers to other maps or to programs can initialise a map definition", d.Name())
		}
	}
	l.globals[d] = &global{name: name, typ: t, isMap: true}
	// An extern declaration of the map (a header's) is this definition.
	l.globalNames[name] = l.globals[d]
	l.m.Maps = append(l.m.Maps, mp)
}

// mapMembers are the members libbpf accepts in a BTF-defined map.
var mapMembers = map[string]bool{"type": true, "key": true, "value": true, "key_size": true, "value_size": true,
	"max_entries": true, "map_flags": true, "numa_node": true, "pinning": true, "map_extra": true, "values": true}

// stripAddr looks through casts and one & to the operand.
func stripAddr(e cc.ExpressionNode) cc.ExpressionNode {
	for {
		switch x := e.(type) {
		case *cc.CastExpression:
			if x.Case == cc.CastExpressionCast {
				e = x.CastExpression
				continue
			}
			e = x.UnaryExpression
			continue
		case *cc.UnaryExpression:
			if x.Case == cc.UnaryExpressionAddrof {
				return x.CastExpression
			}
		}
		return e
	}
}

func declOf(pe *cc.PrimaryExpression) *cc.Declarator {
	d, _ := pe.ResolvedTo().(*cc.Declarator)
	return d
}

// checkDataSections reports variables placed in a section that holds
// program code (one ELF section cannot be both), and warns about sections
// libbpf does not read as data: clang accepts any name, a loader with
// its own conventions may too.
func (l *lowerer) checkDataSections() {
	code := map[string]bool{}
	for _, f := range l.m.Funcs {
		code[f.Section] = true
	}
	for _, g := range l.m.Globals {
		if g.Extern || g.Section == "" {
			continue
		}
		d := diag.Diagnostic{File: g.Pos.File, Line: g.Pos.Line, Col: g.Pos.Col}
		switch {
		case code[g.Section]:
			d.Msg = fmt.Sprintf("variable %q is in section %q, which holds program code", g.Name, g.Section)
		case !libbpfDataSection(g.Section) && !loaderSection[g.Section]:
			d.Severity = diag.Warning
			d.Msg = fmt.Sprintf("variable %q is in section %q, which libbpf does not read as data (.data*, .rodata*, .bss*, .struct_ops, .struct_ops.link, .addr_space.1)", g.Name, g.Section)
		default:
			continue
		}
		l.diags = append(l.diags, d)
	}
}

// loaderSection are the sections other loaders read from objects libbpf
// also loads (it skips them): libxdp's XDP_RUN_CONFIG (a BTF-described
// struct, like a map definition) in every xdp-tools program, and
// udev-hid-bpf's HID_BPF_CONFIG (the devices a kernel HID driver binds to).
var loaderSection = map[string]bool{".xdp_run_order": true, ".hid_bpf_config": true}

// libbpfDataSection reports the sections libbpf 1.5 turns into maps.
func libbpfDataSection(sec string) bool {
	switch sec {
	case ".struct_ops", ".struct_ops.link", ".addr_space.1":
		return true
	}
	return strings.HasPrefix(sec, ".data") || strings.HasPrefix(sec, ".rodata") || strings.HasPrefix(sec, ".bss")
}
