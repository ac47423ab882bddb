package lower

import (
	"math/big"

	"modernc.org/cc/v4"

	"github.com/bpfcc/bpfcc/ir"
)

// constValue returns e's integer constant value, if cc computed one and
// evaluating e has no side effects (cc also values "i = 0").
func constValue(e cc.ExpressionNode) (int64, bool) {
	if e == nil || !e.Pure() || addrOfCompoundLiteral(e) {
		return 0, false
	}
	switch v := e.Value().(type) {
	case cc.Int64Value:
		return int64(v), true
	case cc.UInt64Value:
		return int64(v), true
	}
	return 0, false
}

// addrOfCompoundLiteral reports whether e is &(T){...}, under casts: cc
// gives such an address the literal's value, but it is a stack address.
func addrOfCompoundLiteral(e cc.ExpressionNode) bool {
	e = unwrap(e)
	for c, ok := e.(*cc.CastExpression); ok && c.Case == cc.CastExpressionCast; c, ok = e.(*cc.CastExpression) {
		e = unwrap(c.CastExpression)
	}
	u, ok := e.(*cc.UnaryExpression)
	if !ok || u.Case != cc.UnaryExpressionAddrof {
		return false
	}
	p, ok := unwrap(u.CastExpression).(*cc.PostfixExpression)
	return ok && p.Case == cc.PostfixExpressionComplit
}

// constVal is constValue for expressions inside functions: cc folds
// unsigned enums as int, so expressions with such operands are left for
// lower to fold with clang's types.
func (fl *fnLowerer) constVal(e cc.ExpressionNode) (int64, bool) {
	if e == nil || fl.hasEnumOperand(e) || fl.lateConstP(e) {
		return 0, false
	}
	if id := ident(e); id != nil && fl.constLocals != nil {
		if d, ok := id.ResolvedTo().(*cc.Declarator); ok {
			if v, ok := fl.constLocals[d]; ok {
				return v, true
			}
		}
	}
	return constValue(e)
}

// exprVoid evaluates e for its side effects.
func (fl *fnLowerer) exprVoid(e cc.ExpressionNode) {
	switch x := e.(type) {
	case *cc.ExpressionList:
		for ; x != nil; x = x.ExpressionList {
			fl.exprVoid(x.AssignmentExpression)
		}
		return
	case *cc.CastExpression:
		if x.Case == cc.CastExpressionCast && x.Type().Kind() == cc.Void {
			fl.exprVoid(x.CastExpression)
			return
		}
	case *cc.PrimaryExpression:
		if x.Case == cc.PrimaryExpressionExpr {
			fl.exprVoid(x.ExpressionList)
			return
		}
		if d, ok := x.ResolvedTo().(*cc.Declarator); ok && x.Case == cc.PrimaryExpressionIdent && d.Type().Kind() == cc.Function {
			// A function designator alone does nothing (libbpf's
			// bpf_for_each names the cleanup kfunc so, for its BTF).
			return
		}
	}
	if _, ok := fl.constVal(e); ok {
		return
	}
	if c := callExpr(e); c != nil {
		fl.discard = c
		defer func() { fl.discard = nil }()
	}
	fl.rvalueAny(e)
}

// callExpr returns e as a call expression, looking through parentheses.
func callExpr(e cc.ExpressionNode) *cc.PostfixExpression {
	for {
		switch x := e.(type) {
		case *cc.PostfixExpression:
			if x.Case == cc.PostfixExpressionCall {
				return x
			}
			return nil
		case *cc.PrimaryExpression:
			if x.Case != cc.PrimaryExpressionExpr {
				return nil
			}
			e = x.ExpressionList
		case *cc.ExpressionList:
			if x.ExpressionList != nil {
				return nil
			}
			e = x.AssignmentExpression
		default:
			return nil
		}
	}
}

// rvalueAny evaluates e, allowing void results.
func (fl *fnLowerer) rvalueAny(e cc.ExpressionNode) value {
	if e.Type().Kind() == cc.Void {
		switch x := e.(type) {
		case *cc.PostfixExpression:
			if x.Case == cc.PostfixExpressionCall {
				return fl.call(x, true)
			}
		case *cc.ConditionalExpression:
			return fl.conditional(x, true)
		case *cc.PrimaryExpression:
			if x.Case == cc.PrimaryExpressionStmt {
				return fl.stmtExpr(x)
			}
			if x.Case == cc.PrimaryExpressionExpr {
				return fl.rvalueAny(x.ExpressionList)
			}
		case *cc.CastExpression:
			fl.exprVoid(x.CastExpression)
			return value{op: ir.Imm(0), t: e.Type()}
		case *cc.ExpressionList:
			var v value
			for ; x != nil; x = x.ExpressionList {
				v = fl.rvalueAny(x.AssignmentExpression)
			}
			return v
		}
	}
	return fl.rvalue(e)
}

// floatConstTo folds a floating constant that converts implicitly to the
// integer type t (bpf_timer_start(t, 10E9, 0)), as clang does: no floating
// point reaches the program. ok is false for anything else.
func (fl *fnLowerer) floatConstTo(e cc.ExpressionNode, t cc.Type) (value, bool) {
	if !isFloat(e.Type()) || isFloat(t) || !cc.IsIntegerType(t) {
		return value{}, false
	}
	var f float64
	switch c := e.Value().(type) {
	case cc.Float64Value:
		f = float64(c)
	case *cc.LongDoubleValue:
		f, _ = (*big.Float)(c).Float64()
	default:
		return value{}, false
	}
	var n int64
	if f >= 1<<63 && !cc.IsSignedInteger(t) {
		n = int64(uint64(f))
	} else {
		n = int64(f)
	}
	return value{op: ir.Imm(truncate(n, t)), t: t}, true
}

// rvalue evaluates e to a value. Arrays decay to pointers.
func (fl *fnLowerer) rvalue(e cc.ExpressionNode) value {
	t := e.Type()
	if isFloat(t) {
		fl.l.errorf(e, "floating point is not supported in BPF programs")
		return value{op: ir.Imm(0), t: t}
	}
	if c, ok := fl.constVal(e); ok && (isScalar(t) || t.Kind() == cc.Void) {
		// (cc folds unsigned enums as int; such expressions are folded by
		// lower itself below, with clang's types.)
		return value{op: ir.Imm(truncate(c, t)), t: t}
	}
	if ot := fl.objType(e); ot.Kind() == cc.Array {
		lv := fl.lvalueOf(e)
		return value{op: ir.R(fl.addr(lv)), t: ot.Decay()}
	}
	switch x := e.(type) {
	case *cc.PrimaryExpression:
		return fl.primary(x)
	case *cc.PostfixExpression:
		return fl.postfix(x)
	case *cc.UnaryExpression:
		return fl.unary(x)
	case *cc.CastExpression:
		if x.Case == cc.CastExpressionCast {
			tt := x.TypeName.Type()
			if isFloat(tt) {
				fl.l.errorf(x, "floating point is not supported in BPF programs")
			}
			v := fl.rvalueAny(x.CastExpression)
			if tt.Kind() == cc.Void {
				return value{op: ir.Imm(0), t: tt}
			}
			return fl.convert(v, tt)
		}
		return fl.rvalue(x.UnaryExpression)
	case *cc.MultiplicativeExpression:
		var op ir.ALU
		switch x.Case {
		case cc.MultiplicativeExpressionMul:
			op = ir.Mul
		case cc.MultiplicativeExpressionDiv:
			op = ir.UDiv
		case cc.MultiplicativeExpressionMod:
			op = ir.UMod
		default:
			return fl.rvalue(x.CastExpression)
		}
		return fl.arith(x, op, x.MultiplicativeExpression, x.CastExpression)
	case *cc.AdditiveExpression:
		switch x.Case {
		case cc.AdditiveExpressionAdd:
			return fl.add(x, x.AdditiveExpression, x.MultiplicativeExpression, false)
		case cc.AdditiveExpressionSub:
			return fl.add(x, x.AdditiveExpression, x.MultiplicativeExpression, true)
		}
		return fl.rvalue(x.MultiplicativeExpression)
	case *cc.ShiftExpression:
		switch x.Case {
		case cc.ShiftExpressionLsh:
			return fl.shift(x, ir.Lsh, x.ShiftExpression, x.AdditiveExpression)
		case cc.ShiftExpressionRsh:
			return fl.shift(x, ir.Rsh, x.ShiftExpression, x.AdditiveExpression)
		}
		return fl.rvalue(x.AdditiveExpression)
	case *cc.AndExpression:
		if x.Case == cc.AndExpressionAnd {
			return fl.arith(x, ir.And, x.AndExpression, x.EqualityExpression)
		}
		return fl.rvalue(x.EqualityExpression)
	case *cc.ExclusiveOrExpression:
		if x.Case == cc.ExclusiveOrExpressionXor {
			return fl.arith(x, ir.Xor, x.ExclusiveOrExpression, x.AndExpression)
		}
		return fl.rvalue(x.AndExpression)
	case *cc.InclusiveOrExpression:
		if x.Case == cc.InclusiveOrExpressionOr {
			return fl.arith(x, ir.Or, x.InclusiveOrExpression, x.ExclusiveOrExpression)
		}
		return fl.rvalue(x.ExclusiveOrExpression)
	case *cc.RelationalExpression, *cc.EqualityExpression, *cc.LogicalAndExpression, *cc.LogicalOrExpression:
		return fl.materialize(func(yes, no *ir.Block) { fl.cond(e, yes, no) }, t)
	case *cc.ConditionalExpression:
		if x.Case == cc.ConditionalExpressionCond {
			return fl.conditional(x, false)
		}
		return fl.rvalue(x.LogicalOrExpression)
	case *cc.AssignmentExpression:
		return fl.assign(x)
	case *cc.ExpressionList:
		var v value
		for ; x != nil; x = x.ExpressionList {
			if x.ExpressionList == nil {
				return fl.rvalue(x.AssignmentExpression)
			}
			fl.exprVoid(x.AssignmentExpression)
		}
		return v
	case *cc.ConstantExpression:
		return fl.rvalue(x.ConditionalExpression)
	}
	fl.l.errorf(e, "unsupported expression")
	return value{op: ir.Imm(0), t: t}
}

func (fl *fnLowerer) primary(x *cc.PrimaryExpression) value {
	switch x.Case {
	case cc.PrimaryExpressionIdent:
		return fl.load(fl.lvalueOf(x))
	case cc.PrimaryExpressionExpr:
		return fl.rvalue(x.ExpressionList)
	case cc.PrimaryExpressionString:
		return value{op: ir.R(fl.addr(fl.lvalueOf(x))), t: x.Type().Decay()}
	case cc.PrimaryExpressionStmt:
		return fl.stmtExpr(x)
	case cc.PrimaryExpressionGeneric:
		if a := x.GenericSelection.Associated(); a != nil {
			return fl.rvalue(a.AssignmentExpression)
		}
	case cc.PrimaryExpressionFloat:
		fl.l.errorf(x, "floating point is not supported in BPF programs")
		return value{op: ir.Imm(0), t: x.Type()}
	}
	fl.l.errorf(x, "unsupported expression %s", x.Token.SrcStr())
	return value{op: ir.Imm(0), t: x.Type()}
}

// stmtExpr lowers a GNU statement expression ({ ...; v; }).
func (fl *fnLowerer) stmtExpr(x *cc.PrimaryExpression) value {
	cs := x.CompoundStatement
	// The block's cleanups run once its value is computed; its objects
	// end there, and the declarations after it may use their memory (its
	// value, an object of the block, is read before another is declared).
	defer fl.enterScope()()
	var last *cc.BlockItemList
	for list := cs.BlockItemList; list != nil; list = list.BlockItemList {
		if list.BlockItemList == nil {
			last = list
			break
		}
		bi := list.BlockItem
		switch bi.Case {
		case cc.BlockItemDecl:
			fl.localDecl(bi.Declaration)
		case cc.BlockItemStmt:
			fl.stmt(bi.Statement)
		}
	}
	if last == nil {
		return value{op: ir.Imm(0), t: x.Type()}
	}
	bi := last.BlockItem
	if bi.Case == cc.BlockItemDecl {
		fl.localDecl(bi.Declaration)
		return value{op: ir.Imm(0), t: x.Type()}
	}
	s := bi.Statement
	// The value may follow labels ({ ...; l_true: ret; }, as asm goto
	// macros end).
	for s != nil && s.Case == cc.StatementLabeled && s.LabeledStatement.Case == cc.LabeledStatementLabel && x.Type().Kind() != cc.Void {
		ls := s.LabeledStatement
		fl.reachLabel(ls, ls.Token.SrcStr())
		fl.startBlock(fl.labelBlock(ls.Token.SrcStr()))
		s = ls.Statement
	}
	if s != nil && s.Case == cc.StatementExpr && s.ExpressionStatement.ExpressionList != nil && x.Type().Kind() != cc.Void {
		return fl.rvalue(s.ExpressionStatement.ExpressionList)
	}
	fl.stmt(s)
	return value{op: ir.Imm(0), t: x.Type()}
}

func (fl *fnLowerer) postfix(x *cc.PostfixExpression) value {
	switch x.Case {
	case cc.PostfixExpressionPrimary:
		return fl.rvalue(x.PrimaryExpression)
	case cc.PostfixExpressionCall:
		return fl.call(x, false)
	case cc.PostfixExpressionInc, cc.PostfixExpressionDec:
		return fl.incDec(x, x.PostfixExpression, x.Case == cc.PostfixExpressionInc, true)
	}
	return fl.load(fl.lvalueOf(x))
}

func (fl *fnLowerer) unary(x *cc.UnaryExpression) value {
	t := x.Type()
	switch x.Case {
	case cc.UnaryExpressionPlus, cc.UnaryExpressionMinus, cc.UnaryExpressionCpl:
		t = fl.typeOf(x)
	}
	switch x.Case {
	case cc.UnaryExpressionPostfix:
		return fl.rvalue(x.PostfixExpression)
	case cc.UnaryExpressionInc, cc.UnaryExpressionDec:
		return fl.incDec(x, x.UnaryExpression, x.Case == cc.UnaryExpressionInc, false)
	case cc.UnaryExpressionAddrof:
		return fl.addrOf(x.CastExpression, t)
	case cc.UnaryExpressionDeref:
		return fl.load(fl.lvalueOf(x))
	case cc.UnaryExpressionPlus:
		return fl.convert(fl.rvalue(x.CastExpression), t)
	case cc.UnaryExpressionMinus:
		v := fl.convert(fl.rvalue(x.CastExpression), t)
		if isInt128(t) {
			return fl.binop128(x, ir.Sub, fl.convert(value{op: ir.Imm(0), t: fl.l.u.AST.Int}, t), v, t)
		}
		r := fl.tmp()
		w32 := scalarSize(t) <= 4
		fl.emit(&ir.Instr{Op: ir.OpNeg, Dst: r, A: ir.R(fl.toReg(v)), W32: w32})
		if w32 {
			fl.setFact(r, fact{zext: 32})
		}
		return value{op: ir.R(r), t: t}
	case cc.UnaryExpressionCpl:
		v := fl.convert(fl.rvalue(x.CastExpression), t)
		if isInt128(t) {
			return fl.binop128(x, ir.Xor, v, fl.convert(value{op: ir.Imm(-1), t: fl.l.u.AST.Int}, t), t)
		}
		return fl.binop(ir.Xor, v, value{op: ir.Imm(-1), t: t}, t)
	case cc.UnaryExpressionNot:
		return fl.materialize(func(yes, no *ir.Block) { fl.cond(x.CastExpression, no, yes) }, t)
	case cc.UnaryExpressionSizeofExpr, cc.UnaryExpressionSizeofType, cc.UnaryExpressionAlignofExpr, cc.UnaryExpressionAlignofType:
		if x.Case == cc.UnaryExpressionSizeofType && x.TypeName != nil {
			if v, ok := fl.vlaSize(x.TypeName.Type(), t); ok {
				return v
			}
		}
		fl.l.errorf(x, "sizeof of a type whose size is not known at compile time")
		return value{op: ir.Imm(0), t: t}
	case cc.UnaryExpressionLabelAddr:
		fl.l.errorf(x, "label addresses (&&label) are not supported in BPF")
	case cc.UnaryExpressionReal, cc.UnaryExpressionImag:
		fl.l.errorf(x, "complex numbers are not supported in BPF programs")
	}
	return value{op: ir.Imm(0), t: t}
}

// addrOf evaluates &e.
func (fl *fnLowerer) addrOf(e cc.ExpressionNode, t cc.Type) value {
	if id := ident(e); id != nil {
		if d, ok := id.ResolvedTo().(*cc.Declarator); ok {
			if _, isHelper := fl.l.helpers[d]; isHelper {
				fl.l.errorf(e, "cannot take the address of BPF helper %q: helpers can only be called", d.Name())
				return value{op: ir.Imm(0), t: t}
			}
			if d.Type().Kind() == cc.Function {
				return fl.funcAddr(e, d, t)
			}
		}
	}
	lv := fl.lvalueOf(e)
	if lv.reg != nil {
		fl.l.errorf(e, "internal: address of a register variable")
		return value{op: ir.Imm(0), t: t}
	}
	if lv.field != nil && lv.field.IsBitfield() {
		fl.l.errorf(e, "cannot take the address of a bit-field")
	}
	return value{op: ir.R(fl.addr(lv)), t: t}
}

// ident returns e as a plain identifier, looking through parentheses.
func ident(e cc.ExpressionNode) *cc.PrimaryExpression {
	for {
		switch x := e.(type) {
		case *cc.PrimaryExpression:
			switch x.Case {
			case cc.PrimaryExpressionIdent:
				return x
			case cc.PrimaryExpressionExpr:
				e = x.ExpressionList
				continue
			}
		case *cc.ExpressionList:
			if x.ExpressionList == nil {
				e = x.AssignmentExpression
				continue
			}
		case *cc.PostfixExpression:
			if x.Case == cc.PostfixExpressionPrimary {
				e = x.PrimaryExpression
				continue
			}
		case *cc.UnaryExpression:
			if x.Case == cc.UnaryExpressionPostfix {
				e = x.PostfixExpression
				continue
			}
		case *cc.CastExpression:
			if x.Case == cc.CastExpressionUnary {
				e = x.UnaryExpression
				continue
			}
		}
		return nil
	}
}

// vlaSize computes sizeof of a variable-length array type at run time, as
// C does: its lengths times its element's size. Cilium's build_bug_on(E)
// is (void)sizeof(char[1 - 2*!!(E)]) with E constant only once inlined.
func (fl *fnLowerer) vlaSize(at cc.Type, t cc.Type) (value, bool) {
	a, ok := at.(*cc.ArrayType)
	if !ok || !a.IsVLA() {
		return value{}, false
	}
	var n value
	if e := a.LenExpr(); e != nil && e.Value() == cc.Unknown {
		n = fl.convert(fl.rvalue(e), t)
	} else if a.Len() >= 0 {
		n = value{op: ir.Imm(a.Len()), t: t}
	} else {
		return value{}, false
	}
	var elem value
	if inner, ok := fl.vlaSize(a.Elem(), t); ok {
		elem = inner
	} else if sz := a.Elem().Size(); sz > 0 {
		elem = value{op: ir.Imm(sz), t: t}
	} else {
		return value{}, false
	}
	return fl.binop(ir.Mul, n, elem, t), true
}
