package lower

import (
	"fmt"
	"strings"

	"modernc.org/cc/v4"

	"github.com/bpfcc/bpfcc/ir"
)

// builtin lowers compiler builtins; ok is false for unknown ones.
func (fl *fnLowerer) builtin(x *cc.PostfixExpression, name string, args []cc.ExpressionNode) (value, bool) {
	t := x.Type()
	discard := fl.discard == x
	zero := value{op: ir.Imm(0), t: t}
	need := func(n int) bool {
		if len(args) != n {
			fl.l.errorf(x, "%s takes %d arguments, got %d", name, n, len(args))
			return false
		}
		return true
	}
	switch name {
	case "__builtin_expect", "__builtin_expect_with_probability":
		if len(args) < 1 {
			return zero, true
		}
		v := fl.convert(fl.rvalue(args[0]), t)
		for _, a := range args[1:] {
			fl.exprVoid(a)
		}
		return v, true
	case "__builtin_constant_p":
		if len(args) == 1 {
			if _, ok := fl.constVal(args[0]); ok {
				return value{op: ir.Imm(1), t: t}, true
			}
			if fl.fi.usesConstP {
				return fl.constantP(x, args[0], t), true
			}
		}
		return zero, true
	case "__builtin_bpf_load_byte", "__builtin_bpf_load_half", "__builtin_bpf_load_word":
		// Legacy socket-buffer loads, BPF_LD_ABS/IND: network order
		// converted to host order by the instruction, from the socket
		// buffer that is the function's context (its first parameter),
		// as clang takes it; bpf_legacy.h passes only the offset.
		if len(args) != 1 {
			fl.l.errorf(x, "%s takes 1 argument, the offset, got %d", name, len(args))
			return zero, true
		}
		first := 0
		if fl.sret != 0 {
			first = 1
		}
		if len(fl.f.Params) <= first {
			fl.l.errorf(x, "%s reads the socket buffer that is the context, the first parameter, and %q has none", name, fl.fi.name)
			return zero, true
		}
		size := map[string]int{"byte": 1, "half": 2, "word": 4}[name[len("__builtin_bpf_load_"):]]
		return fl.packetLoad(name, size, ir.R(fl.f.Params[first]), args[0], t), true
	case "__builtin_preserve_access_index":
		if !need(1) {
			return zero, true
		}
		fl.preserve++
		defer func() { fl.preserve-- }()
		return fl.rvalue(args[0]), true
	case "__builtin_preserve_field_info":
		if !need(2) {
			return zero, true
		}
		return fl.preserveFieldInfo(x, args), true
	case "__builtin_bpfcc_member_offset", "__builtin_bpfcc_field_info":
		if !need(map[string]int{"__builtin_bpfcc_member_offset": 1, "__builtin_bpfcc_field_info": 2}[name]) {
			return zero, true
		}
		return fl.localFieldInfo(x, name, args), true
	case "__builtin_preserve_type_info", "__builtin_btf_type_id":
		if !need(2) {
			return zero, true
		}
		return fl.preserveTypeInfo(x, name, args), true
	case "__builtin_preserve_enum_value":
		if !need(2) {
			return zero, true
		}
		return fl.preserveEnumValue(x, args), true
	case "__builtin_choose_expr":
		if !need(3) {
			return zero, true
		}
		return fl.chooseExpr(args, discard), true
	case "__builtin_unreachable":
		fl.emitRet(ir.Imm(0))
		return zero, true
	case "__builtin_trap":
		// An error if optimisation does not remove it (libbpf's
		// __bpf_unreachable relies on that); the return ends the block.
		fl.emit(&ir.Instr{Op: ir.OpCallFunc, Sym: ir.TrapSym})
		fl.emitRet(ir.Imm(0))
		return zero, true
	case "__builtin_bswap16", "__builtin_bswap32", "__builtin_bswap64":
		if !need(1) {
			return zero, true
		}
		v := fl.convert(fl.rvalue(args[0]), t)
		bits := scalarSize(t) * 8
		if v.op.IsImm {
			return value{op: ir.Imm(truncate(ir.EvalBswap(v.op.Imm, bits), t)), t: t}, true
		}
		r := fl.tmp()
		fl.emit(&ir.Instr{Op: ir.OpBswap, Dst: r, A: v.op, Bits: bits})
		if bits < 64 {
			fl.setFact(r, fact{zext: bits})
		}
		return value{op: ir.R(r), t: t}, true
	case "__builtin_memcpy", "__builtin_memmove", "memcpy", "memmove":
		if !need(3) {
			return zero, true
		}
		al := min(pointeeAlign(args[0]), pointeeAlign(args[1]))
		if !strings.HasSuffix(name, "memmove") && fl.sizeLater(args[2]) {
			dst, src := fl.rvalue(args[0]), fl.rvalue(args[1])
			return dst, fl.memOpLater(ir.MemcpySym, name, dst, src, args[2], al)
		}
		n, ok := fl.constSize(x, name, args[2])
		if !ok {
			return zero, true
		}
		dst, src := fl.rvalue(args[0]), fl.rvalue(args[1])
		dl := lvalue{t: elemType(dst.t), base: fl.toReg(dst)}
		sl := lvalue{t: elemType(src.t), base: fl.toReg(src)}
		if strings.HasSuffix(name, "memmove") {
			// Load everything first: the regions may overlap.
			fl.memmove(dl, sl, n, al)
		} else {
			fl.memcpy(dl, sl, n, al)
		}
		return dst, true
	case "__builtin_memset", "memset":
		if !need(3) {
			return zero, true
		}
		if fl.sizeLater(args[2]) {
			dst := fl.rvalue(args[0])
			c := fl.convert(fl.rvalue(args[1]), fl.l.u.AST.UChar)
			return dst, fl.memOpLater(ir.MemsetSym, name, dst, c, args[2], pointeeAlign(args[0]))
		}
		n, ok := fl.constSize(x, name, args[2])
		if !ok {
			return zero, true
		}
		dst := fl.rvalue(args[0])
		dl := lvalue{t: elemType(dst.t), base: fl.toReg(dst)}
		if c, ok := fl.constVal(args[1]); ok {
			fl.memset(dl, byte(c), n, pointeeAlign(args[0]))
			return dst, true
		}
		fl.memsetVar(dl, fl.rvalue(args[1]), n, pointeeAlign(args[0]))
		return dst, true
	case "__builtin_strncpy", "__builtin_strcpy":
		// Of a string literal (parca-agent's error messages copy
		// __FILE__ into a map value): stores of its bytes, zero-padded
		// to the size for strncpy, as clang expands it. BPF has no
		// strncpy to call for any other source.
		nargs := map[string]int{"__builtin_strncpy": 3, "__builtin_strcpy": 2}[name]
		if !need(nargs) {
			return zero, true
		}
		lit, ok := stringLiteral(args[1])
		if !ok {
			lit, ok = fl.funcName(args[1])
		}
		if !ok {
			fl.l.errorf(x, "%s is supported only of a string literal (BPF has no %s)", name, libName(name))
			return zero, true
		}
		buf := append([]byte(lit), 0)
		if nargs == 3 {
			n, ok := fl.constSize(x, name, args[2])
			if !ok {
				return zero, true
			}
			buf = append(buf, make([]byte, max(n-int64(len(buf)), 0))...)[:n]
		}
		dst := fl.rvalue(args[0])
		fl.storeBytes(lvalue{t: elemType(dst.t), base: fl.toReg(dst)}, 0, buf, pointeeAlign(args[0]))
		return dst, true
	case "__builtin_memcmp", "__builtin_bcmp", "memcmp", "bcmp":
		if !need(3) {
			return zero, true
		}
		n, ok := fl.constSize(x, name, args[2])
		if !ok {
			return zero, true
		}
		return fl.memcmp(fl.rvalue(args[0]), fl.rvalue(args[1]), n, t), true
	case "__builtin_strlen":
		// Of a string literal, folded as clang folds it (tracee's logging
		// measures __FILE__ passed to an always-inline function: codegen
		// folds that once inlining binds the parameter to the literal).
		if !need(1) {
			return zero, true
		}
		if a, ok := stringLiteral(args[0]); ok {
			if i := strings.IndexByte(a, 0); i >= 0 {
				a = a[:i]
			}
			return value{op: ir.Imm(int64(len(a))), t: t}, true
		}
		p := fl.rvalue(args[0])
		fl.setPos(x)
		return fl.emitCall(&ir.Instr{Op: ir.OpCallFunc, Sym: ir.StrlenSym, Args: []ir.Operand{ir.R(fl.toReg(p))},
			Note: "__builtin_strlen is supported only of a string literal (BPF has no strlen)"}, t), true
	case "__builtin_strcmp":
		// Of two string literals (bpf_cmp_likely's operator tests),
		// folded as clang folds it.
		if !need(2) {
			return zero, true
		}
		a, okA := stringLiteral(args[0])
		b, okB := stringLiteral(args[1])
		if okA && okB {
			return value{op: ir.Imm(int64(strings.Compare(a, b))), t: t}, true
		}
		// Inlining may bind a parameter to a literal (tetragon's file
		// ids: an always-inline helper compares its argument with each
		// file name); codegen folds it then, or reports it.
		pa, pb := fl.rvalue(args[0]), fl.rvalue(args[1])
		fl.setPos(x)
		return fl.emitCall(&ir.Instr{Op: ir.OpCallFunc, Sym: ir.StrcmpSym, Args: []ir.Operand{ir.R(fl.toReg(pa)), ir.R(fl.toReg(pb))},
			Note: "__builtin_strcmp is supported only of two string literals (BPF has no strcmp)"}, t), true
	}
	if strings.HasPrefix(name, "__sync_") || strings.HasPrefix(name, "__atomic_") || strings.HasPrefix(name, "__c11_atomic_") {
		return fl.atomic(x, name, args, discard)
	}
	return zero, false
}

// sizeLater reports whether the size e of a memcpy or memset is no
// constant here but may become one: a parameter of a function inlining
// binds to a constant.
func (fl *fnLowerer) sizeLater(e cc.ExpressionNode) bool {
	_, ok := fl.constVal(e)
	return !ok && foldableLater(e)
}

// memOpLater emits the memcpy or memset (sym) whose size e the optimiser
// may learn (see ir.MemcpySym); it always reports true.
func (fl *fnLowerer) memOpLater(sym, name string, dst, b value, e cc.ExpressionNode, al int) bool {
	n := fl.convert(fl.rvalue(e), fl.l.u.AST.ULong)
	fl.setPos(e)
	fl.emit(&ir.Instr{Op: ir.OpCallFunc, Sym: sym, Args: []ir.Operand{ir.R(fl.toReg(dst)), b.op, n.op}, Size: max(al, 1),
		Note: fmt.Sprintf("%s needs a size known at compile time in BPF", name)})
	return true
}

// maxInlineMemBytes is the largest memcpy, memset or memcmp expanded
// inline: clang-19's BPF backend expands 1,024 bytes (128 stores of 8) and
// calls the library function, which BPF has not, for more. A map value
// may be that large (parca-agent clears a 1,024-byte stack trace).
const maxInlineMemBytes = 1024

// libName is the library function a builtin stands for.
func libName(builtin string) string { return strings.TrimPrefix(builtin, "__builtin_") }

func (fl *fnLowerer) constSize(x cc.Node, name string, e cc.ExpressionNode) (int64, bool) {
	n, ok := fl.constVal(e)
	if !ok && foldableLater(e) {
		// A size made of variables (a parameter of an always-inline
		// function, READ_ONCE's size switch): an error only where
		// optimisation leaves the copy reachable, as a call of the
		// library function stays an error with clang.
		fl.setPos(e)
		fl.emit(&ir.Instr{Op: ir.OpCallFunc, Sym: ir.TrapSym, Note: fmt.Sprintf("%s needs a size known at compile time in BPF", name)})
		return 0, false
	}
	if !ok {
		fl.l.errorf(e, "%s needs a size known at compile time in BPF", name)
		return 0, false
	}
	if n < 0 || n > maxInlineMemBytes {
		fl.l.errorf(e, "%s of %d bytes: over the %d bytes expanded inline, and BPF has no %s to call (clang: \"A call to built-in function '%s' is not supported\")",
			name, n, maxInlineMemBytes, libName(name), libName(name))
		return 0, false
	}
	return n, true
}

// pointeeAlign returns the alignment known for the address e computes:
// its pointee type's, or, for an array that decays there (p->buf, s.buf,
// &a[2]), its container's as far as the member's offset keeps it, as
// clang derives it: memcpy and memset then move whole words.
func pointeeAlign(e cc.ExpressionNode) int {
	if e.Type().Kind() == cc.Array || decaysArray(e) {
		return objectAlign(e)
	}
	if x, ok := stripParens(e).(*cc.UnaryExpression); ok && x.Case == cc.UnaryExpressionAddrof {
		// The object's own: a member of a packed struct may be less
		// aligned than its type (netobserv's memset(&id->src_ip, ...)).
		return objectAlign(x.CastExpression)
	}
	t := e.Type().Decay()
	if p, ok := t.(*cc.PointerType); ok {
		if el := p.Elem(); el.Kind() != cc.Void {
			return max(align(el), castFromAlign(e))
		}
	}
	return castFromAlign(e)
}

// decaysArray reports whether e names an array object that decays to a
// pointer there: cc gives such an argument the pointer type already.
func decaysArray(e cc.ExpressionNode) bool {
	switch x := stripParens(e).(type) {
	case *cc.PostfixExpression:
		if x.Case == cc.PostfixExpressionSelect || x.Case == cc.PostfixExpressionPSelect {
			f := x.Field()
			return f != nil && f.Type().Kind() == cc.Array
		}
	case *cc.PrimaryExpression:
		if x.Case == cc.PrimaryExpressionIdent {
			d, ok := x.ResolvedTo().(*cc.Declarator)
			return ok && d.Type().Kind() == cc.Array
		}
	}
	return false
}

// castFromAlign looks through a cast or an & for the alignment of what
// e's pointer was made from (1 when nothing is known).
func castFromAlign(e cc.ExpressionNode) int {
	switch x := stripParens(e).(type) {
	case *cc.CastExpression:
		if x.Case == cc.CastExpressionCast {
			return pointeeAlign(x.CastExpression)
		}
	case *cc.UnaryExpression:
		if x.Case == cc.UnaryExpressionAddrof {
			return objectAlign(x.CastExpression)
		}
	}
	return 1
}

// objectAlign returns the alignment known for the object lvalue e names:
// a member's is its container's, reduced by the member's offset; an
// element's its array's, reduced by the element size (times a constant
// index).
func objectAlign(e cc.ExpressionNode) int {
	within := func(base int, off int64) int {
		if off == 0 {
			return base
		}
		return min(base, int(off&-off))
	}
	switch x := stripParens(e).(type) {
	case *cc.PostfixExpression:
		f := x.Field()
		switch {
		case x.Case == cc.PostfixExpressionPSelect && f != nil && !f.IsBitfield():
			return within(pointeeAlign(x.PostfixExpression), fieldOffset(f))
		case x.Case == cc.PostfixExpressionSelect && f != nil && !f.IsBitfield():
			return within(objectAlign(x.PostfixExpression), fieldOffset(f))
		case x.Case == cc.PostfixExpressionIndex && typeSize(x.Type()) > 0:
			sz, ba := typeSize(x.Type()), pointeeAlign(x.PostfixExpression)
			switch v := x.ExpressionList.Value().(type) {
			case cc.Int64Value:
				return within(ba, int64(v)*sz)
			case cc.UInt64Value:
				return within(ba, int64(v)*sz)
			}
			return within(ba, sz)
		}
	case *cc.UnaryExpression:
		if x.Case == cc.UnaryExpressionDeref {
			return pointeeAlign(x.CastExpression)
		}
	}
	return align(e.Type())
}

// memmove copies through registers, loading all chunks before storing.
func (fl *fnLowerer) memmove(dst, src lvalue, size int64, al int) {
	if size > 64 {
		fl.l.errorf(nil, "__builtin_memmove of more than 64 bytes is not supported")
		return
	}
	db, doff := fl.memBase(dst)
	sb, soff := fl.memBase(src)
	type piece struct {
		r   ir.Reg
		off int64
		w   int64
	}
	var ps []piece
	for done := int64(0); done < size; {
		w := chunk(size-done, al)
		r := fl.tmp()
		fl.emit(&ir.Instr{Op: ir.OpLoad, Dst: r, A: ir.R(sb), Off: soff + done, Size: int(w)})
		ps = append(ps, piece{r, done, w})
		done += w
	}
	for _, p := range ps {
		fl.emit(&ir.Instr{Op: ir.OpStore, A: ir.R(db), B: ir.R(p.r), Off: doff + p.off, Size: int(p.w)})
	}
}

// memcmp compares byte by byte (big-endian order of significance), giving
// <0, 0 or >0 like the C function.
func (fl *fnLowerer) memcmp(a, b value, n int64, t cc.Type) value {
	ar, br := fl.toReg(a), fl.toReg(b)
	r := fl.tmp()
	done := fl.f.NewBlock()
	fl.emit(&ir.Instr{Op: ir.OpMov, Dst: r, A: ir.Imm(0)})
	for i := int64(0); i < n; i++ {
		x, y := fl.tmp(), fl.tmp()
		fl.emit(&ir.Instr{Op: ir.OpLoad, Dst: x, A: ir.R(ar), Off: i, Size: 1})
		fl.emit(&ir.Instr{Op: ir.OpLoad, Dst: y, A: ir.R(br), Off: i, Size: 1})
		fl.emit(&ir.Instr{Op: ir.OpALU, ALU: ir.Sub, Dst: r, A: ir.R(x), B: ir.R(y), W32: true})
		next := fl.f.NewBlock()
		fl.branch(ir.Ne, ir.R(r), ir.Imm(0), true, done, next)
		fl.b = next
	}
	fl.jump(done)
	fl.b = done
	return value{op: ir.R(r), t: t}
}

// atomic lowers __sync_* and __atomic_* builtins onto BPF atomics. The
// value ones yield the pointed-to type, as GCC and clang define them (cc
// types the builtins int).
func (fl *fnLowerer) atomic(x *cc.PostfixExpression, name string, args []cc.ExpressionNode, discard bool) (value, bool) {
	t := x.Type()
	zero := value{op: ir.Imm(0), t: t}
	base := strings.TrimPrefix(strings.TrimPrefix(strings.TrimPrefix(name, "__sync_"), "__atomic_"), "__c11_atomic_")
	base = strings.TrimRight(strings.TrimRight(base, "0123456789"), "_")
	if len(args) < 1 {
		fl.l.errorf(x, "%s needs a pointer argument", name)
		return zero, true
	}
	p := fl.rvalue(args[0])
	et := elemType(p.t.Decay())
	if et == nil || !isScalar(et) {
		fl.l.errorf(args[0], "%s needs a pointer to an integer", name)
		return zero, true
	}
	size := scalarSize(et)
	ptr := fl.toReg(p)
	arg := func(i int) value {
		if i >= len(args) {
			fl.l.errorf(x, "%s: missing argument", name)
			return value{op: ir.Imm(0), t: et}
		}
		return fl.convert(fl.rvalue(args[i]), et)
	}
	switch base {
	case "load_n", "load":
		r := fl.tmp()
		fl.emit(&ir.Instr{Op: ir.OpLoad, Dst: r, A: ir.R(ptr), Size: size})
		return value{op: ir.R(r), t: et}, true
	case "store_n", "store", "init":
		v := arg(1)
		fl.emit(&ir.Instr{Op: ir.OpStore, A: ir.R(ptr), B: ir.R(fl.toReg(v)), Size: size})
		return zero, true
	}
	if size != 4 && size != 8 {
		fl.l.errorf(x, "%s on a %d-byte object: BPF atomics work on 4- and 8-byte values", name, size)
		return zero, true
	}
	rmw := map[string]ir.Atomic{"add": ir.AtomicAdd, "or": ir.AtomicOr, "and": ir.AtomicAnd, "xor": ir.AtomicXor, "sub": ir.AtomicAdd}
	if op, post, ok := atomicRMW(base); ok {
		kind := rmw[op]
		v := arg(1)
		if op == "sub" {
			v = fl.binop(ir.Sub, value{op: ir.Imm(0), t: et}, v, et)
		}
		fetch := !discard
		if !fetch && kind == ir.AtomicAdd {
			fl.emit(&ir.Instr{Op: ir.OpAtomic, Atomic: kind, A: ir.R(ptr), B: ir.R(fl.toReg(v)), Size: size})
			return zero, true
		}
		if fl.l.cpu() < 3 && size == 4 {
			fl.l.errorf(x, "%s on a 4-byte object needs -mcpu=v3 or later (BPF's 32-bit atomics are ALU32 instructions); a 64-bit object works at any -mcpu", name)
			return zero, true
		}
		old := fl.tmp()
		vr := fl.toReg(v)
		fl.emit(&ir.Instr{Op: ir.OpAtomic, Atomic: kind, Dst: old, A: ir.R(ptr), B: ir.R(vr), Size: size, Fetch: fetch})
		if !fetch {
			return zero, true
		}
		if !post {
			return value{op: ir.R(old), t: et}, true
		}
		// op_and_fetch: recompute the new value from the old one.
		alu := map[string]ir.ALU{"add": ir.Add, "or": ir.Or, "and": ir.And, "xor": ir.Xor, "sub": ir.Add}[op]
		return fl.binop(alu, value{op: ir.R(old), t: et}, value{op: ir.R(vr), t: et}, et), true
	}
	if fl.l.cpu() < 3 && size == 4 {
		// As clang: 64-bit fetching atomics at any -mcpu (the kernel
		// knows no -mcpu), the 32-bit ones with ALU32.
		fl.l.errorf(x, "%s on a 4-byte object needs -mcpu=v3 or later (BPF's 32-bit atomics are ALU32 instructions); a 64-bit object works at any -mcpu", name)
		return zero, true
	}
	switch base {
	case "lock_test_and_set", "exchange_n", "exchange":
		v := arg(1)
		old := fl.tmp()
		fl.emit(&ir.Instr{Op: ir.OpAtomic, Atomic: ir.AtomicXchg, Dst: old, A: ir.R(ptr), B: ir.R(fl.toReg(v)), Size: size, Fetch: true})
		return value{op: ir.R(old), t: et}, true
	case "lock_release":
		fl.emit(&ir.Instr{Op: ir.OpStore, A: ir.R(ptr), B: ir.Imm(0), Size: size})
		return zero, true
	case "val_compare_and_swap", "bool_compare_and_swap":
		expect, desired := arg(1), arg(2)
		old := fl.tmp()
		fl.emit(&ir.Instr{Op: ir.OpAtomic, Atomic: ir.AtomicCmpXchg, Dst: old, A: ir.R(ptr), B: ir.R(fl.toReg(desired)), C: expect.op, Size: size, Fetch: true})
		if base == "val_compare_and_swap" {
			return value{op: ir.R(old), t: et}, true
		}
		return fl.materialize(func(yes, no *ir.Block) {
			fl.branch(ir.Eq, ir.R(old), fl.cmpOperand(expect, size == 4), size == 4, yes, no)
		}, t), true
	case "compare_exchange_n", "compare_exchange_strong", "compare_exchange_weak":
		// bool __atomic_compare_exchange_n(T *p, T *expected, T desired, ...),
		// and C11's __c11_atomic_compare_exchange_strong/weak alike.
		ep := fl.rvalue(args[1])
		epr := fl.toReg(ep)
		exp := fl.tmp()
		fl.emit(&ir.Instr{Op: ir.OpLoad, Dst: exp, A: ir.R(epr), Size: size})
		desired := arg(2)
		old := fl.tmp()
		fl.emit(&ir.Instr{Op: ir.OpAtomic, Atomic: ir.AtomicCmpXchg, Dst: old, A: ir.R(ptr), B: ir.R(fl.toReg(desired)), C: ir.R(exp), Size: size, Fetch: true})
		return fl.materialize(func(yes, no *ir.Block) {
			fail := fl.f.NewBlock()
			fl.branch(ir.Eq, ir.R(old), ir.R(exp), size == 4, yes, fail)
			fl.b = fail
			fl.emit(&ir.Instr{Op: ir.OpStore, A: ir.R(epr), B: ir.R(old), Size: size})
			fl.jump(no)
		}, t), true
	case "synchronize", "thread_fence", "signal_fence":
		return zero, true
	}
	fl.l.errorf(x, "atomic builtin %s is not supported by BPF", name)
	return zero, true
}

// atomicRMW splits fetch_and_add / add_and_fetch / fetch_add / add_fetch.
func atomicRMW(base string) (op string, post, ok bool) {
	for _, o := range []string{"add", "sub", "or", "and", "xor"} {
		switch base {
		case "fetch_and_" + o, "fetch_" + o:
			return o, false, true
		case o + "_and_fetch", o + "_fetch":
			return o, true, true
		}
	}
	return "", false, false
}

func (l *lowerer) cpu() int {
	if l.opts.CPU == 0 {
		return 3
	}
	return l.opts.CPU
}

// packetLoad emits a legacy socket-buffer load of size bytes at offset
// off of the packet of skb (see ir.OpCall).
func (fl *fnLowerer) packetLoad(name string, size int, skb ir.Operand, off cc.ExpressionNode, t cc.Type) value {
	o := fl.convert(fl.rvalue(off), fl.l.u.AST.Long)
	v := fl.emitCall(&ir.Instr{Op: ir.OpCall, Size: size, Args: []ir.Operand{skb, o.op}, Note: name}, t)
	if t.Kind() != cc.Void {
		fl.setFact(v.op.Reg, fact{zext: 8 * size})
	}
	return v
}

// llvmPacketLoad is the size of the load a function declared with
// clang's intrinsic as its asm label does (bpf_legacy.h's
// "unsigned long long load_byte(void *skb, unsigned long long off)
// asm("llvm.bpf.load.byte")"), else 0.
func llvmPacketLoad(a *cc.Asm) int {
	if a == nil {
		return 0
	}
	return map[string]int{"llvm.bpf.load.byte": 1, "llvm.bpf.load.half": 2, "llvm.bpf.load.word": 4}[strings.Trim(a.Token3.SrcStr(), "\"")]
}

// chooseExpr lowers __builtin_choose_expr(c, a, b): a if the constant c is
// nonzero, else b; the other is not evaluated (cc has typed the call as
// the chosen one).
func (fl *fnLowerer) chooseExpr(args []cc.ExpressionNode, discard bool) value {
	c, ok := fl.constVal(args[0])
	if !ok {
		fl.l.errorf(args[0], "__builtin_choose_expr needs an integer constant expression as its condition")
		return value{op: ir.Imm(0), t: args[1].Type()}
	}
	pick := args[2]
	if c != 0 {
		pick = args[1]
	}
	if discard || pick.Type().Kind() == cc.Void {
		fl.exprVoid(pick)
		return value{op: ir.Imm(0), t: pick.Type()}
	}
	return fl.rvalue(pick)
}

// stringLiteral is the text of a string literal operand, up to its NUL.
// funcName is the value of e when it is __func__ (or __FUNCTION__):
// the name of the function being lowered, whose text it stands in.
func (fl *fnLowerer) funcName(e cc.ExpressionNode) (string, bool) {
	x, ok := stripParens(e).(*cc.PrimaryExpression)
	if !ok || x.Case != cc.PrimaryExpressionIdent {
		return "", false
	}
	d, ok := x.ResolvedTo().(*cc.Declarator)
	if !ok || d.Name() != "__func__" || fl.vars[d] != nil {
		return "", false
	}
	return fl.fi.name, true
}

func stringLiteral(e cc.ExpressionNode) (string, bool) {
	v, ok := e.Value().(cc.StringValue)
	if !ok {
		return "", false
	}
	str, _, _ := strings.Cut(string(v), "\x00")
	return str, true
}
