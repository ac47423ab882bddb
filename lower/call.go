package lower

import (
	"slices"
	"strings"

	"github.com/cilium/ebpf/btf"

	"modernc.org/cc/v4"

	"github.com/bpfcc/bpfcc/internal/suggest"
	"github.com/bpfcc/bpfcc/ir"
)

func callArgs(x *cc.PostfixExpression) []cc.ExpressionNode {
	var args []cc.ExpressionNode
	for l := x.ArgumentExpressionList; l != nil; l = l.ArgumentExpressionList {
		args = append(args, l.AssignmentExpression)
	}
	return args
}

// call lowers a function call: helper, builtin or bpf-to-bpf.
func (fl *fnLowerer) call(x *cc.PostfixExpression, void bool) value {
	t := x.Type()
	args := callArgs(x)
	id := ident(x.PostfixExpression)
	if id == nil {
		return fl.indirectCall(x, args)
	}
	name := id.Token.SrcStr()
	d, _ := id.ResolvedTo().(*cc.Declarator)
	if d != nil {
		if hid, ok := fl.l.helpers[d]; ok {
			return fl.helperCall(x, name, hid, elemType(d.Type()), args)
		}
		if libcBuiltins[name] && !fl.l.noBuiltin(name) {
			// Clang's builtin even where the file defines the function
			// (l3af's own memset, which reads the destination): -fbuiltin
			// is the default; -fno-builtin and -ffreestanding call it.
			if v, ok := fl.builtin(x, name, args); ok {
				return v
			}
		}
		if fi, ok := fl.l.funcs[d.Name()]; ok && d.Type().Kind() == cc.Function {
			return fl.funcCall(x, fi, args)
		}
		if n := fl.l.pktLoads[d.Name()]; n > 0 && len(args) == 2 {
			skb := fl.rvalue(args[0])
			return fl.packetLoad(name, n, skb.op, args[1], t)
		}
		if ft, ok := d.Type().(*cc.FunctionType); ok && fl.l.ksymFuncs[d.Name()] {
			return fl.kfuncCall(x, d, ft, args)
		}
	}
	if name == "__ccgo__types_compatible_p" {
		// cc's spelling of __builtin_types_compatible_p, which it answers.
		if v, ok := x.Value().(cc.Int64Value); ok {
			for _, a := range args {
				fl.exprVoid(a)
			}
			return value{op: ir.Imm(int64(v)), t: t}
		}
	}
	if strings.HasPrefix(name, "__builtin_") || strings.HasPrefix(name, "__sync_") || strings.HasPrefix(name, "__atomic_") || strings.HasPrefix(name, "__c11_atomic_") {
		if v, ok := fl.builtin(x, name, args); ok {
			return v
		}
		fl.l.errorf(x, "builtin %s is not supported by bpfcc", name)
		return value{op: ir.Imm(0), t: t}
	}
	if d == nil || d.IsSynthetic() && !libcBuiltins[name] {
		// cc declares an undeclared callee implicitly; C99 and clang
		// refuse, except library builtins (memcpy), which clang declares.
		fl.l.errorf(x, "call to undeclared function %q%s", name, suggest.DidYouMean(name, fl.l.callableNames()))
		return value{op: ir.Imm(0), t: t}
	}
	if d.Type().Kind() == cc.Ptr {
		return fl.indirectCall(x, args)
	}
	if libcBuiltins[name] {
		// Clang treats these as its builtins: without a definition in
		// the file they are the __builtin_ versions, inlined.
		if v, ok := fl.builtin(x, name, args); ok {
			return v
		}
	}
	if ft, ok := d.Type().(*cc.FunctionType); ok && !d.IsStatic() {
		// Defined in another object: a BPF-to-BPF call against the
		// undefined symbol, which the static linker (bpftool gen object)
		// resolves, as clang emits it.
		return fl.externCall(x, d, ft, args)
	}
	fl.l.errorf(x, "call to external function %q, which is neither a BPF helper nor defined in this file%s", name, suggest.DidYouMean(name, fl.l.callableNames()))
	return value{op: ir.Imm(0), t: t}
}

// libcBuiltins are the library functions clang lowers as its builtins.
var libcBuiltins = map[string]bool{"memcpy": true, "memmove": true, "memset": true, "memcmp": true, "bcmp": true}

func (fl *fnLowerer) argValues(x *cc.PostfixExpression, ft *cc.FunctionType, args []cc.ExpressionNode, what string) []ir.Operand {
	if len(args) > 5 && !strings.HasPrefix(what, "function ") {
		fl.l.errorf(x, "call to %s passes %d arguments; BPF passes at most 5", what, len(args))
		return nil
	}
	var params []*cc.Parameter
	if ft != nil {
		params = ft.Parameters()
		// A prototype fixes the count, as clang checks it: a missing
		// argument would leave its register unset ("R2 !read_ok"), an
		// extra one would be dropped.
		switch max := ft.MaxArgs(); {
		case len(args) < ft.MinArgs():
			fl.l.errorf(x, "too few arguments to %s, expected %d, have %d", what, ft.MinArgs(), len(args))
			return nil
		case max >= 0 && len(args) > max:
			fl.l.errorf(args[max], "too many arguments to %s, expected %d, have %d", what, max, len(args))
			return nil
		}
	}
	var ops []ir.Operand
	// Copies of by-value arguments live only for this call: a scope of
	// their own lets other calls' copies share their memory.
	var callScope *ir.Scope
	for i, a := range args {
		if i < len(params) && isScalar(params[i].Type()) {
			if v, ok := fl.floatConstTo(a, params[i].Type()); ok {
				ops = append(ops, v.op)
				continue
			}
		}
		v := fl.rvalue(a)
		if isAggregate(v.t) && a.Type().Kind() != cc.Array {
			if !strings.HasPrefix(what, "function ") {
				fl.l.errorf(a, "passing a %s by value to %s is not supported; pass a pointer", typeName(v.t), what)
			} else {
				if callScope == nil {
					callScope = &ir.Scope{Parent: fl.scope}
				}
				v = fl.byValue(v, callScope)
			}
		}
		if i < len(params) && isScalar(params[i].Type()) {
			if a.Position() != x.PostfixExpression.Position() {
				// An argument one macro expansion made with the call
				// is left alone: libbpf's BPF_PROG passes ctx[i] to
				// pointer parameters under a pragma silencing clang.
				fl.checkIntToPointer(a, params[i].Type(), passing)
			}
			v = fl.convert(v, params[i].Type())
			if cc.IsIntegerType(v.t) && scalarSize(v.t) == 4 && (strings.HasPrefix(what, "helper ") || strings.HasPrefix(what, "kernel ")) {
				// A 4-byte value is exact only in its low half (see
				// convert); the verifier checks a helper's size in 64
				// bits. Clang passes them zero-extended, as its 32-bit
				// moves leave them (gotls' __u32 len = (__u64)x,
				// clamped, passed as a size, kept the upper half). A
				// BPF function's body reads them in 32 bits, as the
				// helpers it calls get them extended.
				v = fl.convert(value{op: v.op, t: fl.l.u.AST.UInt}, fl.l.u.AST.ULong)
			}
		} else if !isAggregate(v.t) {
			v = fl.convert(v, cc.IntegerPromotion(v.t))
		}
		ops = append(ops, v.op)
	}
	return ops
}

func (fl *fnLowerer) helperCall(x *cc.PostfixExpression, name string, id int64, ft cc.Type, args []cc.ExpressionNode) value {
	t := x.Type()
	fty, _ := ft.(*cc.FunctionType)
	ops := fl.argValues(x, fty, args, "helper "+name)
	if gplOnly[name] {
		fl.l.usedGPL = append(fl.l.usedGPL, gplUse{name: name, pos: x.Position()})
	}
	fl.recordOutput(id, args)
	return fl.emitCall(&ir.Instr{Op: ir.OpCall, Imm: id, Args: ops, Note: name}, t)
}

// emitCall emits call in, giving it a result register unless t is void,
// and returns the result.
func (fl *fnLowerer) emitCall(call *ir.Instr, t cc.Type) value {
	if t.Kind() == cc.Void {
		fl.emit(call)
		return value{op: ir.Imm(0), t: t}
	}
	call.Dst = fl.tmp()
	fl.emit(call)
	return value{op: ir.R(call.Dst), t: t}
}

func (fl *fnLowerer) funcCall(x *cc.PostfixExpression, fi *funcInfo, args []cc.ExpressionNode) value {
	t := x.Type()
	ft := fi.decl.Type().(*cc.FunctionType)
	if len(args) > ir.MaxArgs && (fi.f.NoInline || !fi.f.Static) {
		// Never inlined: the call must pass its arguments in registers.
		fl.l.errorf(x, "call to function %s passes %d arguments; BPF passes at most 5", fi.name, len(args))
	}
	ops := fl.argValues(x, ft, args, "function "+fi.name)
	if n := len(ft.Parameters()); ft.IsVariadic() && len(ops) > n {
		ops = ops[:n] // evaluated; the body has no va_arg to read them
	}
	var result *ir.Slot
	if isAggregate(t) {
		// byValue: the callee writes its result to a slot of ours.
		result = fl.newSlot("result", int(max(typeSize(t), 1)), align(t))
		r := fl.tmp()
		fl.emit(&ir.Instr{Op: ir.OpFrameAddr, Dst: r, Slot: result})
		ops = append([]ir.Operand{ir.R(r)}, ops...)
	}
	if _, ok := fl.fi.calls[fi.name]; !ok {
		fl.fi.calls[fi.name] = x.Position()
	}
	if _, ok := fl.fi.direct[fi.name]; !ok {
		fl.fi.direct[fi.name] = x.Position()
	}
	if fi.f.Section != "" && fi.f.Section != ".text" {
		fl.l.errorf(x, "calling BPF program %q (section %q) from another function is not supported", fi.name, fi.f.Section)
	}
	call := &ir.Instr{Op: ir.OpCallFunc, Sym: fi.name, Args: ops}
	if result != nil {
		fl.emit(call)
		return value{op: ir.R(fl.addr(lvalue{t: t, slot: result})), t: t}
	}
	return fl.emitCall(call, t)
}

// checkRecursion rejects direct and mutual recursion.
func (l *lowerer) checkRecursion() {
	const (
		white = iota
		grey
		black
	)
	color := map[string]int{}
	found := false
	var visit func(fi *funcInfo) bool
	visit = func(fi *funcInfo) bool {
		color[fi.name] = grey
		for _, callee := range sortedKeys(fi.direct) {
			c := l.funcs[callee]
			switch color[callee] {
			case grey:
				p := fi.direct[callee]
				if callee == fi.name {
					l.errorf(posNode{p}, "function %q calls itself: recursion is not allowed in BPF", fi.name)
				} else {
					l.errorf(posNode{p}, "call from %q to %q makes a recursive cycle: recursion is not allowed in BPF", fi.name, callee)
				}
				found = true
			case white:
				visit(c)
			}
			if found {
				break
			}
		}
		color[fi.name] = black
		return found
	}
	for _, fi := range l.order {
		if color[fi.name] == white && !found {
			visit(fi)
		}
	}
}

// Helper ids whose arguments tell which record type an output map carries.
const (
	helperPerfEventOutput = 25
	helperRingbufOutput   = 130
	helperRingbufReserve  = 131
)

// recordOutput notes the record type sent to a perf event array or ring
// buffer (bpf_perf_event_output(ctx, &map, flags, &rec, size),
// bpf_ringbuf_output(&map, &rec, size, flags)), so the runtime can decode
// events by field.
func (fl *fnLowerer) recordOutput(id int64, args []cc.ExpressionNode) {
	mapArg, dataArg := -1, -1
	switch id {
	case helperPerfEventOutput:
		mapArg, dataArg = 1, 3
	case helperRingbufOutput:
		mapArg, dataArg = 0, 1
	default:
		return
	}
	if len(args) <= dataArg {
		return
	}
	t := fl.pointee(args[dataArg])
	fl.setOutput(args[mapArg], t)
}

// setOutput records t as the record type of the map expression e (&map).
func (fl *fnLowerer) setOutput(e cc.ExpressionNode, t cc.Type) {
	if t == nil || (t.Kind() != cc.Struct && t.Kind() != cc.Union) {
		return
	}
	pe := ident(stripAddr(e))
	if pe == nil {
		return
	}
	g, ok := fl.l.globals[declOf(pe)]
	if !ok || !g.isMap {
		return
	}
	if fl.l.m.Output == nil {
		fl.l.m.Output = map[string]btf.Type{}
	}
	if _, seen := fl.l.m.Output[g.name]; !seen {
		fl.l.m.Output[g.name] = fl.l.btf.typ(t)
	}
}

// pointee is the type of the object a pointer argument points to, looking
// through casts to void * (&rec, (void *)&rec, recp).
func (fl *fnLowerer) pointee(e cc.ExpressionNode) cc.Type {
	if x := stripAddr(e); x != e {
		return fl.objType(x)
	}
	for {
		c, ok := e.(*cc.CastExpression)
		if !ok || c.Case != cc.CastExpressionCast {
			break
		}
		e = c.CastExpression
	}
	if x := stripAddr(e); x != e {
		return fl.objType(x)
	}
	if t := e.Type(); t.Kind() == cc.Ptr {
		return elemType(t)
	}
	return nil
}

// noteReserve records the record type of r = bpf_ringbuf_reserve(&map, ...)
// from the pointer type the result is stored in.
func (fl *fnLowerer) noteReserve(target cc.Type, e cc.ExpressionNode) {
	for {
		c, ok := e.(*cc.CastExpression)
		if !ok || c.Case != cc.CastExpressionCast {
			break
		}
		e = c.CastExpression
	}
	call := callExpr(e)
	if call == nil || !isPtr(target) {
		return
	}
	id := ident(call.PostfixExpression)
	if id == nil {
		return
	}
	d, _ := id.ResolvedTo().(*cc.Declarator)
	if hid, ok := fl.l.helpers[d]; !ok || hid != helperRingbufReserve {
		return
	}
	if args := callArgs(call); len(args) > 0 {
		fl.setOutput(args[0], elemType(target))
	}
}

// funcAddr is the address of function d, for helpers that take a callback
// (bpf_loop, bpf_for_each_map_elem, bpf_timer_set_callback, ...): an
// ld_imm64 BPF_PSEUDO_FUNC of a subprogram defined in this file. The
// callback counts as a call of d (recursion, call-chain stack).
func (fl *fnLowerer) funcAddr(n cc.Node, d *cc.Declarator, t cc.Type) value {
	fi := fl.l.funcs[d.Name()]
	if fi == nil {
		return fl.externFuncAddr(d, t)
	}
	if fi.f.Section != "" && fi.f.Section != ".text" {
		fl.l.errorf(n, "BPF program %q (section %q) cannot be used as a callback", fi.name, fi.f.Section)
	}
	if _, ok := fl.fi.calls[fi.name]; !ok {
		fl.fi.calls[fi.name] = n.Position()
	}
	r := fl.tmp()
	fl.emit(&ir.Instr{Op: ir.OpFuncAddr, Dst: r, Sym: fi.name})
	return value{op: ir.R(r), t: t}
}

// byValue passes aggregate v by value to a function of the file: bpfcc's
// convention (BPF has none for aggregates) is a pointer to a copy made for
// the call, which the callee owns. A function returning an aggregate gets
// a hidden first argument, the address to store the result at. Inlining
// usually removes both.
func (fl *fnLowerer) byValue(v value, scope *ir.Scope) value {
	size := max(typeSize(v.t), 1)
	tmp := fl.newSlot("arg", int(size), align(v.t))
	tmp.Scope = scope
	dst := lvalue{t: v.t, slot: tmp}
	fl.copyMem(dst, v)
	return value{op: ir.R(fl.addr(dst)), t: v.t}
}

// kfuncCall lowers a call of a kernel function declared
// `extern ... __ksym`: a bpf-to-bpf call of an undefined symbol, which the
// loader turns into a kfunc call (BPF_PSEUDO_KFUNC_CALL) after finding the
// function in the kernel's BTF, as clang emits it.
func (fl *fnLowerer) kfuncCall(x *cc.PostfixExpression, d *cc.Declarator, ft *cc.FunctionType, args []cc.ExpressionNode) value {
	t := x.Type()
	name := d.Name()
	if isAggregate(ft.Result()) {
		fl.l.errorf(x, "kernel function %q returns a %s; kfuncs return scalars or pointers", name, typeName(ft.Result()))
		return value{op: ir.Imm(0), t: t}
	}
	ops := fl.argValues(x, ft, args, "kernel function "+name)
	fl.l.kfunc(d, ft)
	return fl.emitCall(&ir.Instr{Op: ir.OpCallFunc, Sym: name, Args: ops, Note: name}, t)
}

// indirectCall calls through a function pointer: a call of ir.IndirectSym,
// which code generation makes direct once the pointer is known to hold one
// function (a local assigned once, an inlined function's parameter).
func (fl *fnLowerer) indirectCall(x *cc.PostfixExpression, args []cc.ExpressionNode) value {
	t := x.Type()
	ft, _ := elemType(x.PostfixExpression.Type()).(*cc.FunctionType)
	if ft == nil || isAggregate(t) {
		fl.l.errorf(x, "indirect calls through function pointers are not supported in BPF")
		return value{op: ir.Imm(0), t: t}
	}
	callee := fl.rvalue(x.PostfixExpression)
	ops := append([]ir.Operand{callee.op}, fl.argValues(x, ft, args, "function pointer")...)
	return fl.emitCall(&ir.Instr{Op: ir.OpCallFunc, Sym: ir.IndirectSym, Args: ops, Note: "indirect call"}, t)
}

// externCall calls function d, declared here and defined in another
// object: as a kfunc call, whose FUNC is in no DATASEC (Plain).
func (fl *fnLowerer) externCall(x *cc.PostfixExpression, d *cc.Declarator, ft *cc.FunctionType, args []cc.ExpressionNode) value {
	v := fl.kfuncCall(x, d, ft, args)
	for _, k := range fl.l.m.Kfuncs {
		if k.Name == d.Name() {
			k.Plain = true
			k.Hidden = isHidden(d, nil)
		}
	}
	return v
}

// kfunc records kernel function d for the object's .ksyms.
func (l *lowerer) kfunc(d *cc.Declarator, ft *cc.FunctionType) {
	for _, k := range l.m.Kfuncs {
		if k.Name == d.Name() {
			return
		}
	}
	fn := &btf.Func{Name: d.Name(), Type: l.btf.proto(ft), Linkage: btf.ExternFunc}
	attrs := d.Type().Attributes()
	weak := attrs != nil && (hasAttr(attrs, "weak") || attrs.Weak())
	l.m.Kfuncs = append(l.m.Kfuncs, &ir.Kfunc{Name: d.Name(), BTF: fn, Weak: weak, Pos: l.pos(d)})
}

// externFuncAddr is the address of a function declared but not defined
// here, a kfunc (bpf_ksym_exists(kfunc)) or one the static linker
// resolves: ld_imm64 with a relocation against its undefined symbol, as
// clang emits it. The loader writes the kfunc's BTF id there, or 0 for a
// missing __weak one.
func (fl *fnLowerer) externFuncAddr(d *cc.Declarator, t cc.Type) value {
	ft, ok := d.Type().(*cc.FunctionType)
	if !ok {
		return value{op: ir.Imm(0), t: t}
	}
	fl.l.kfunc(d, ft)
	for _, k := range fl.l.m.Kfuncs {
		if k.Name == d.Name() && !fl.l.ksymFuncs[d.Name()] {
			k.Plain = true
		}
	}
	r := fl.tmp()
	fl.emit(&ir.Instr{Op: ir.OpSymAddr, Dst: r, Sym: d.Name()})
	return value{op: ir.R(r), t: t}
}

// callableNames lists what a call in this unit can name: the helpers,
// functions and kfuncs it declares, for a misspelled call's suggestions.
func (l *lowerer) callableNames() []string {
	var names []string
	for d := range l.helpers {
		names = append(names, d.Name())
	}
	for name := range l.funcs {
		names = append(names, name)
	}
	for name := range l.ksymFuncs {
		names = append(names, name)
	}
	return names
}

// noBuiltin reports whether a call of the library function name is to be
// a call (-fno-builtin-name, -fno-builtin, -ffreestanding).
func (l *lowerer) noBuiltin(name string) bool {
	return slices.Contains(l.opts.NoBuiltin, "*") || slices.Contains(l.opts.NoBuiltin, name)
}
