package lower

import (
	"github.com/cilium/ebpf/btf"
	"modernc.org/cc/v4"

	"github.com/bpfcc/bpfcc/ir"
)

// dataImage is the initial contents of a global being built from its
// initializer: bytes, and the addresses of other objects inside them, which
// only the loader or linker can fill in (relocations, as clang emits them).
type dataImage struct {
	buf    []byte
	relocs []ir.DataReloc
}

// clearRange zeroes [lo, hi) and forgets the addresses stored there: a
// later braced initializer replaces the sub-object.
func (img *dataImage) clearRange(lo, hi int64) {
	lo, hi = max(lo, 0), min(hi, int64(len(img.buf)))
	if lo >= hi {
		return
	}
	clear(img.buf[lo:hi])
	kept := img.relocs[:0]
	for _, r := range img.relocs {
		if int64(r.Off)+8 <= lo || int64(r.Off) >= hi {
			kept = append(kept, r)
		}
	}
	img.relocs = kept
}

// setReloc records the address sym+addend in the 8 bytes at off (replacing
// whatever was there).
func (img *dataImage) setReloc(off int64, sym string, addend int64) {
	img.clearRange(off, off+8)
	img.relocs = append(img.relocs, ir.DataReloc{Off: int(off), Sym: sym, Addend: addend})
}

// staticInt evaluates an integer constant expression of a static
// initializer. Beyond what cc folds, it reads const-qualified globals with
// constant initializers and folds __builtin_bswap*, as clang does.
func (l *lowerer) staticInt(e cc.ExpressionNode) (int64, bool) {
	if c, ok := constValue(e); ok {
		return c, true
	}
	if e == nil || !cc.IsIntegerType(e.Type()) && !isPtr(e.Type()) {
		return 0, false
	}
	t := e.Type()
	switch x := unwrap(e).(type) {
	case *cc.PrimaryExpression:
		if x.Case == cc.PrimaryExpressionIdent {
			return l.constGlobal(x, t)
		}
	case *cc.CastExpression:
		if x.Case == cc.CastExpressionCast && cc.IsScalarType(x.CastExpression.Type()) {
			v, ok := l.staticInt(x.CastExpression)
			return truncate(v, t), ok
		}
	case *cc.UnaryExpression:
		return l.staticUnary(x, t)
	case *cc.PostfixExpression:
		if x.Case == cc.PostfixExpressionCall {
			return l.staticBswap(x, t)
		}
	case *cc.ConditionalExpression:
		if x.Case == cc.ConditionalExpressionCond {
			c, ok := l.staticInt(x.LogicalOrExpression)
			if !ok {
				return 0, false
			}
			pick := x.ConditionalExpression
			if c != 0 {
				pick = x.ExpressionList
			}
			v, ok := l.staticInt(pick)
			return truncate(v, t), ok
		}
	}
	if op, a, b, ok := binaryOperands(unwrap(e)); ok {
		return l.staticBinary(op, a, b, t)
	}
	return 0, false
}

// constGlobal is the value of a const, non-volatile scalar global with a
// constant initializer.
func (l *lowerer) constGlobal(x *cc.PrimaryExpression, t cc.Type) (int64, bool) {
	d, _ := x.ResolvedTo().(*cc.Declarator)
	g := l.globals[d]
	if g == nil || g.g == nil || !g.g.Const || len(g.g.Relocs) > 0 || !cc.IsIntegerType(g.typ) {
		return 0, false
	}
	n := scalarSize(g.typ)
	if n > len(g.g.Init) {
		return 0, false
	}
	var v int64
	for i := n - 1; i >= 0; i-- {
		v = v<<8 | int64(g.g.Init[i])
	}
	return truncate(truncate(v, g.typ), t), true
}

func (l *lowerer) staticUnary(x *cc.UnaryExpression, t cc.Type) (int64, bool) {
	switch x.Case {
	case cc.UnaryExpressionPlus, cc.UnaryExpressionMinus, cc.UnaryExpressionCpl, cc.UnaryExpressionNot:
	default:
		return 0, false
	}
	v, ok := l.staticInt(x.CastExpression)
	if !ok {
		return 0, false
	}
	switch x.Case {
	case cc.UnaryExpressionMinus:
		v = -v
	case cc.UnaryExpressionCpl:
		v = ^v
	case cc.UnaryExpressionNot:
		v = b2i(v == 0)
	}
	return truncate(v, t), true
}

// staticBswap folds __builtin_bswap16/32/64 of a constant.
func (l *lowerer) staticBswap(x *cc.PostfixExpression, t cc.Type) (int64, bool) {
	id := ident(x.PostfixExpression)
	args := callArgs(x)
	if id == nil || len(args) != 1 {
		return 0, false
	}
	bits := map[string]int{"__builtin_bswap16": 16, "__builtin_bswap32": 32, "__builtin_bswap64": 64}[id.Token.SrcStr()]
	if bits == 0 {
		return 0, false
	}
	v, ok := l.staticInt(args[0])
	if !ok {
		return 0, false
	}
	return truncate(ir.EvalBswap(v, bits), t), true
}

// binaryOperands splits a binary arithmetic, shift, comparison or logical
// expression into its operator and operands.
func binaryOperands(e cc.ExpressionNode) (op string, a, b cc.ExpressionNode, ok bool) {
	switch x := e.(type) {
	case *cc.MultiplicativeExpression:
		op = map[cc.MultiplicativeExpressionCase]string{cc.MultiplicativeExpressionMul: "*", cc.MultiplicativeExpressionDiv: "/", cc.MultiplicativeExpressionMod: "%"}[x.Case]
		a, b = x.MultiplicativeExpression, x.CastExpression
	case *cc.AdditiveExpression:
		op = map[cc.AdditiveExpressionCase]string{cc.AdditiveExpressionAdd: "+", cc.AdditiveExpressionSub: "-"}[x.Case]
		a, b = x.AdditiveExpression, x.MultiplicativeExpression
	case *cc.ShiftExpression:
		op = map[cc.ShiftExpressionCase]string{cc.ShiftExpressionLsh: "<<", cc.ShiftExpressionRsh: ">>"}[x.Case]
		a, b = x.ShiftExpression, x.AdditiveExpression
	case *cc.RelationalExpression:
		op = map[cc.RelationalExpressionCase]string{cc.RelationalExpressionLt: "<", cc.RelationalExpressionGt: ">", cc.RelationalExpressionLeq: "<=", cc.RelationalExpressionGeq: ">="}[x.Case]
		a, b = x.RelationalExpression, x.ShiftExpression
	case *cc.EqualityExpression:
		op = map[cc.EqualityExpressionCase]string{cc.EqualityExpressionEq: "==", cc.EqualityExpressionNeq: "!="}[x.Case]
		a, b = x.EqualityExpression, x.RelationalExpression
	case *cc.AndExpression:
		op, a, b = "&", x.AndExpression, x.EqualityExpression
	case *cc.ExclusiveOrExpression:
		op, a, b = "^", x.ExclusiveOrExpression, x.AndExpression
	case *cc.InclusiveOrExpression:
		op, a, b = "|", x.InclusiveOrExpression, x.ExclusiveOrExpression
	case *cc.LogicalAndExpression:
		op, a, b = "&&", x.LogicalAndExpression, x.InclusiveOrExpression
	case *cc.LogicalOrExpression:
		op, a, b = "||", x.LogicalOrExpression, x.LogicalAndExpression
	}
	return op, a, b, op != "" && a != nil && b != nil
}

// staticBinary folds a op b in C's types: the operands converted to the
// common type (the result type, or for comparisons the usual arithmetic
// conversion of both), the result truncated to t.
func (l *lowerer) staticBinary(op string, a, b cc.ExpressionNode, t cc.Type) (int64, bool) {
	x, ok := l.staticInt(a)
	if !ok {
		return 0, false
	}
	if op == "&&" && x == 0 || op == "||" && x != 0 {
		return b2i(op == "||"), true
	}
	y, ok := l.staticInt(b)
	if !ok {
		return 0, false
	}
	ct := t
	switch op {
	case "<", ">", "<=", ">=", "==", "!=":
		ct = usualConversions(a.Type(), b.Type())
	case "<<", ">>":
		ct = a.Type()
	}
	if !cc.IsIntegerType(ct) && !isPtr(ct) {
		return 0, false
	}
	if op != "<<" && op != ">>" {
		x, y = truncate(x, ct), truncate(y, ct)
	}
	signed, w32 := isSigned(ct), scalarSize(ct) <= 4
	alu := map[string]ir.ALU{"*": ir.Mul, "+": ir.Add, "-": ir.Sub, "&": ir.And, "|": ir.Or, "^": ir.Xor, "<<": ir.Lsh}
	cond := map[string]ir.Cond{"==": ir.Eq, "!=": ir.Ne}
	switch op {
	case "/", "%":
		if y == 0 {
			return 0, false
		}
		alu["/"], alu["%"] = ir.UDiv, ir.UMod
		if signed {
			alu["/"], alu["%"] = ir.SDiv, ir.SMod
		}
	case ">>":
		alu[">>"] = ir.Rsh
		if signed {
			alu[">>"] = ir.Arsh
		}
	case "<", ">", "<=", ">=":
		cond["<"], cond[">"], cond["<="], cond[">="] = ir.Ult, ir.Ugt, ir.Ule, ir.Uge
		if signed {
			cond["<"], cond[">"], cond["<="], cond[">="] = ir.Slt, ir.Sgt, ir.Sle, ir.Sge
		}
	case "&&", "||":
		return b2i(y != 0), true
	}
	if c, isCond := cond[op]; isCond {
		return b2i(ir.EvalCond(c, w32, x, y)), true
	}
	return truncate(ir.EvalALU(alu[op], w32, x, y), t), true
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// addrConst evaluates an address constant (C11 6.6p9) of a static
// initializer: the address of a function, of an object with static storage
// or of a string literal, plus or minus an integer constant, through casts.
// The result is the symbol and the byte offset from it.
func (l *lowerer) addrConst(e cc.ExpressionNode) (sym string, addend int64, ok bool) {
	switch x := unwrap(e).(type) {
	case *cc.PrimaryExpression:
		switch x.Case {
		case cc.PrimaryExpressionIdent:
			d, _ := x.ResolvedTo().(*cc.Declarator)
			if d != nil && (d.Type().Kind() == cc.Function || d.Type().Kind() == cc.Array) {
				return l.objectAddr(x)
			}
		case cc.PrimaryExpressionString:
			return l.stringLiteral(x), 0, true
		}
	case *cc.CastExpression:
		if x.Case == cc.CastExpressionCast && (isPtr(x.Type()) || scalarSize(x.Type()) == 8) {
			return l.addrConst(x.CastExpression)
		}
	case *cc.UnaryExpression:
		if x.Case == cc.UnaryExpressionAddrof {
			return l.objectAddr(x.CastExpression)
		}
	case *cc.AdditiveExpression:
		if x.Case != cc.AdditiveExpressionAdd && x.Case != cc.AdditiveExpressionSub {
			return "", 0, false
		}
		p, n := x.AdditiveExpression, x.MultiplicativeExpression
		if x.Case == cc.AdditiveExpressionAdd && !isPtr(p.Type()) && isPtr(n.Type()) {
			p, n = n, p
		}
		sym, off, ok := l.addrConst(p)
		c, cok := l.staticInt(n)
		if !ok || !cok || !cc.IsIntegerType(n.Type()) {
			return "", 0, false
		}
		if isPtr(p.Type()) {
			c *= max(typeSize(elemType(p.Type())), 1)
		}
		if x.Case == cc.AdditiveExpressionSub {
			c = -c
		}
		return sym, off + c, true
	}
	return "", 0, false
}

// objectAddr is the address of the object or function lvalue e designates:
// a global, a function, a string literal, or a member or constant-index
// element of one.
func (l *lowerer) objectAddr(e cc.ExpressionNode) (sym string, off int64, ok bool) {
	switch x := unwrap(e).(type) {
	case *cc.PrimaryExpression:
		switch x.Case {
		case cc.PrimaryExpressionIdent:
			d, _ := x.ResolvedTo().(*cc.Declarator)
			if d == nil {
				return "", 0, false
			}
			if g := l.globals[d]; g != nil {
				return g.name, 0, true
			}
			if d.Type().Kind() == cc.Function {
				l.dataFuncRefs[d.Name()] = d
				return d.Name(), 0, true
			}
		case cc.PrimaryExpressionString:
			return l.stringLiteral(x), 0, true
		}
	case *cc.PostfixExpression:
		switch x.Case {
		case cc.PostfixExpressionSelect:
			sym, off, ok := l.objectAddr(x.PostfixExpression)
			return sym, off + fieldOffset(x.Field()), ok
		case cc.PostfixExpressionIndex:
			idx, iok := l.staticInt(x.ExpressionList)
			base := x.PostfixExpression
			if !cc.IsIntegerType(x.ExpressionList.Type()) {
				base, idx, iok = x.ExpressionList, 0, false
				if c, ok := l.staticInt(x.PostfixExpression); ok {
					idx, iok = c, true
				}
			}
			sym, off, ok := l.addrConst(base)
			if !ok || !iok {
				return "", 0, false
			}
			return sym, off + idx*max(typeSize(x.Type()), 1), true
		}
	case *cc.UnaryExpression:
		if x.Case == cc.UnaryExpressionDeref {
			return l.addrConst(x.CastExpression)
		}
	}
	return "", 0, false
}

// externFuncRefs records the functions named in initializers that the file
// declares but does not define: undefined symbols, kernel functions when
// declared __ksym.
func (l *lowerer) externFuncRefs() {
	for _, name := range sortedKeys(l.dataFuncRefs) {
		if l.funcs[name] != nil {
			continue
		}
		d := l.dataFuncRefs[name]
		if ft, ok := d.Type().(*cc.FunctionType); ok {
			l.kfunc(d, ft)
			for _, k := range l.m.Kfuncs {
				if k.Name == name {
					k.Plain = !l.ksymFuncs[name]
				}
			}
		}
	}
}

// linkerExtern is the global for an extern variable or map declared but
// not defined in this file, which the BPF static linker (bpftool gen
// object) resolves against another object: an undefined symbol, as with
// clang. It is nil when d is no such declaration or the file defines it.
func (l *lowerer) linkerExtern(d *cc.Declarator) *global {
	id, ok := l.linkerExterns[d]
	if !ok {
		return nil
	}
	if g := l.globalNames[d.Name()]; g != nil {
		return g
	}
	attrs := d.Type().Attributes()
	weak := hasAttr(attrs, "weak") || listHasAttr(id.AttributeSpecifierList, "weak")
	t := d.Type()
	g := &global{name: d.Name(), typ: t}
	if sectionOf(attrs, id.AttributeSpecifierList) == ".maps" {
		bt, isStruct := btf.UnderlyingType(l.btf.typ(t)).(*btf.Struct)
		if !isStruct {
			l.errorf(d, "map %q in SEC(\".maps\") must be a struct", d.Name())
			return nil
		}
		g.isMap = true
		l.m.Maps = append(l.m.Maps, &ir.Map{Name: d.Name(), BTF: bt, Pos: l.pos(d), Extern: true, Weak: weak})
	} else {
		g.g = &ir.Global{Name: d.Name(), Size: int(typeSize(t)), Align: align(t), BTF: l.btf.typ(t), Pos: l.pos(d), Extern: true, Weak: weak}
		l.m.Globals = append(l.m.Globals, g.g)
	}
	l.globals[d] = g
	l.globalNames[d.Name()] = g
	return g
}
