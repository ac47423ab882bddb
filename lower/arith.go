package lower

import (
	"modernc.org/cc/v4"

	"github.com/bpfcc/bpfcc/ir"
)

// arith lowers a binary arithmetic/bitwise operator after the usual
// arithmetic conversions (cc's result type is the common type).
func (fl *fnLowerer) arith(n cc.ExpressionNode, op ir.ALU, a, b cc.ExpressionNode) value {
	t := fl.typeOf(n)
	av := fl.convert(fl.rvalue(a), t)
	bv := fl.convert(fl.rvalue(b), t)
	if isSigned(t) {
		switch op {
		case ir.UDiv:
			op = ir.SDiv
		case ir.UMod:
			op = ir.SMod
		}
	}
	if isInt128(t) {
		return fl.binop128(n, op, av, bv, t)
	}
	if isDivision(op) && bv.op.IsImm && bv.op.Imm == 0 {
		fl.l.errorf(n, "division by zero")
		return value{op: ir.Imm(0), t: t}
	}
	return fl.binop(op, av, bv, t)
}

// binop emits Dst = a op b at the width of t, folding constants.
func (fl *fnLowerer) binop(op ir.ALU, a, b value, t cc.Type) value {
	w32 := scalarSize(t) <= 4
	if a.op.IsImm && b.op.IsImm && !(isDivision(op) && b.op.Imm == 0) {
		return value{op: ir.Imm(truncate(ir.EvalALU(op, w32, a.op.Imm, b.op.Imm), t)), t: t}
	}
	// Commutative operations take an immediate on the right.
	if a.op.IsImm && !b.op.IsImm {
		switch op {
		case ir.Add, ir.Mul, ir.And, ir.Or, ir.Xor:
			a, b = b, a
		}
	}
	if b.op.IsImm && (b.op.Imm < -1<<31 || b.op.Imm > 1<<31-1) {
		if !w32 {
			b = value{op: ir.R(fl.toReg(b)), t: b.t}
		} else {
			b = value{op: ir.Imm(int64(int32(b.op.Imm))), t: b.t}
		}
	}
	r := fl.tmp()
	// Signed arithmetic does not overflow in C (it is undefined).
	nsw := (op == ir.Add || op == ir.Sub || op == ir.Mul) && cc.IsSignedInteger(t)
	fl.emit(&ir.Instr{Op: ir.OpALU, ALU: op, Dst: r, A: ir.R(fl.toReg(a)), B: b.op, W32: w32, NSW: nsw})
	if w32 {
		fl.setFact(r, fact{zext: 32})
	}
	return value{op: ir.R(r), t: t}
}

func isDivision(op ir.ALU) bool {
	return op == ir.UDiv || op == ir.UMod || op == ir.SDiv || op == ir.SMod
}

// add lowers + and -, including pointer arithmetic.
func (fl *fnLowerer) add(n cc.ExpressionNode, a, b cc.ExpressionNode, sub bool) value {
	t := n.Type()
	at, bt := a.Type().Decay(), b.Type().Decay()
	switch {
	case isPtr(at) && isPtr(bt) && sub:
		// Pointer difference in elements.
		av, bv := fl.rvalue(a), fl.rvalue(b)
		d := fl.binop(ir.Sub, av, bv, t)
		size := elemSize(at)
		if size == 1 {
			return d
		}
		if sh := log2(size); sh >= 0 {
			return fl.binop(ir.Arsh, d, value{op: ir.Imm(int64(sh)), t: t}, t)
		}
		return fl.binop(ir.SDiv, d, value{op: ir.Imm(size), t: t}, t)
	case isPtr(at):
		p := fl.rvalue(a)
		if c, ok := fl.constVal(b); ok && p.op.IsImm {
			if sub {
				c = -c
			}
			return value{op: ir.Imm(p.op.Imm + c*elemSize(at)), t: t}
		}
		return value{op: ir.R(fl.offsetPtr(fl.toReg(p), b, elemSize(at), sub)), t: t}
	case isPtr(bt):
		p := fl.rvalue(b)
		return value{op: ir.R(fl.offsetPtr(fl.toReg(p), a, elemSize(bt), false)), t: t}
	}
	if sub {
		return fl.arith(n, ir.Sub, a, b)
	}
	return fl.arith(n, ir.Add, a, b)
}

// shift lowers << and >>: the result has the promoted left operand's type.
func (fl *fnLowerer) shift(n cc.ExpressionNode, op ir.ALU, a, b cc.ExpressionNode) value {
	t := fl.typeOf(n)
	av := fl.convert(fl.rvalue(a), t)
	bv := fl.rvalue(b)
	bv = fl.convert(bv, cc.IntegerPromotion(bv.t))
	if op == ir.Rsh && isSigned(t) {
		op = ir.Arsh
	}
	if bv.op.IsImm {
		width := int64(scalarSize(t) * 8)
		if bv.op.Imm < 0 || bv.op.Imm >= width {
			fl.l.warnf(n, "shift count %d is out of range for a %d-bit type", bv.op.Imm, width)
			bv.op.Imm &= width - 1
		}
	}
	if isInt128(t) {
		return fl.binop128(n, op, av, bv, t)
	}
	return fl.binop(op, av, bv, t)
}

// cond branches to yes or no on e's truth value, with short-circuit
// evaluation and comparisons fused into branches.
func (fl *fnLowerer) cond(e cc.ExpressionNode, yes, no *ir.Block) {
	if c, ok := fl.constVal(e); ok {
		if c != 0 {
			fl.jump(yes)
		} else {
			fl.jump(no)
		}
		return
	}
	switch x := e.(type) {
	case *cc.PrimaryExpression:
		if x.Case == cc.PrimaryExpressionExpr {
			fl.cond(x.ExpressionList, yes, no)
			return
		}
	case *cc.ExpressionList:
		if x.ExpressionList != nil {
			fl.exprVoid(x.AssignmentExpression)
			fl.cond(x.ExpressionList, yes, no)
			return
		}
		fl.cond(x.AssignmentExpression, yes, no)
		return
	case *cc.LogicalAndExpression:
		if x.Case == cc.LogicalAndExpressionLAnd {
			mid := fl.f.NewBlock()
			fl.cond(x.LogicalAndExpression, mid, no)
			fl.b = mid
			fl.cond(x.InclusiveOrExpression, yes, no)
			return
		}
	case *cc.LogicalOrExpression:
		if x.Case == cc.LogicalOrExpressionLOr {
			mid := fl.f.NewBlock()
			fl.cond(x.LogicalOrExpression, yes, mid)
			fl.b = mid
			fl.cond(x.LogicalAndExpression, yes, no)
			return
		}
	case *cc.UnaryExpression:
		if x.Case == cc.UnaryExpressionNot {
			fl.cond(x.CastExpression, no, yes)
			return
		}
	case *cc.PostfixExpression:
		if arg, want, ok := fl.expectCall(x); ok {
			// likely(c), unlikely(c): the branches into yes and no say
			// which one is expected (see branchLikely).
			savedYes, savedNo := fl.expectYes, fl.expectNo
			fl.expectYes, fl.expectNo = yes, no
			if !want {
				fl.expectYes, fl.expectNo = no, yes
			}
			fl.cond(arg, yes, no)
			fl.expectYes, fl.expectNo = savedYes, savedNo
			return
		}
	case *cc.RelationalExpression:
		var c ir.Cond
		switch x.Case {
		case cc.RelationalExpressionLt:
			c = ir.Ult
		case cc.RelationalExpressionGt:
			c = ir.Ugt
		case cc.RelationalExpressionLeq:
			c = ir.Ule
		case cc.RelationalExpressionGeq:
			c = ir.Uge
		default:
			fl.cond(x.ShiftExpression, yes, no)
			return
		}
		fl.compare(c, x.RelationalExpression, x.ShiftExpression, yes, no)
		return
	case *cc.EqualityExpression:
		switch x.Case {
		case cc.EqualityExpressionEq:
			fl.compare(ir.Eq, x.EqualityExpression, x.RelationalExpression, yes, no)
			return
		case cc.EqualityExpressionNeq:
			fl.compare(ir.Ne, x.EqualityExpression, x.RelationalExpression, yes, no)
			return
		}
		fl.cond(x.RelationalExpression, yes, no)
		return
	case *cc.AndExpression:
		if x.Case == cc.AndExpressionAnd && !isInt128(x.Type()) {
			// if (a & b): a JSET test.
			t := x.Type()
			av := fl.convert(fl.rvalue(x.AndExpression), t)
			bv := fl.convert(fl.rvalue(x.EqualityExpression), t)
			if av.op.IsImm {
				av, bv = bv, av
			}
			fl.branch(ir.Set, ir.R(fl.toReg(av)), fl.cmpOperand(bv, scalarSize(t) <= 4), scalarSize(t) <= 4, yes, no)
			return
		}
	}
	v := fl.rvalue(e)
	if isInt128(v.t) {
		v = fl.truth128(v)
	}
	w32 := !isAggregate(v.t) && scalarSize(v.t) <= 4
	if v.op.IsImm {
		if v.op.Imm != 0 {
			fl.jump(yes)
		} else {
			fl.jump(no)
		}
		return
	}
	fl.branch(ir.Ne, v.op, ir.Imm(0), w32, yes, no)
}

// expectCall reads a call of __builtin_expect(arg, C) with a constant C:
// want is whether arg is expected true.
func (fl *fnLowerer) expectCall(x *cc.PostfixExpression) (arg cc.ExpressionNode, want, ok bool) {
	if x.Case != cc.PostfixExpressionCall {
		return nil, false, false
	}
	id := ident(x.PostfixExpression)
	if id == nil || id.Token.SrcStr() != "__builtin_expect" {
		return nil, false, false
	}
	args := callArgs(x)
	if len(args) != 2 {
		return nil, false, false
	}
	c, ok := fl.constVal(args[1])
	return args[0], c != 0, ok
}

// staticLikely is the way clang's static branch heuristics (LLVM's
// BranchProbabilityInfo) expect "a c b" to go, where bpfcc follows them:
// pointers found equal is unlikely. (Its heuristics for comparisons with 0
// are not followed: laid out so, selftests' strobemeta exceeded the
// verifier's 1M instructions and strobemeta_bpf_loop hit a verifier bug
// in precision tracking, "backtracking call unexpected regs".)
func staticLikely(c ir.Cond, ptr bool) ir.Likely {
	switch {
	case ptr && c == ir.Eq:
		return ir.LikelyElse
	case ptr && c == ir.Ne:
		return ir.LikelyThen
	}
	return ir.LikelyUnknown
}

// narrowCompare compares a 32-bit integer widened to 64 bits with a
// constant as the 32-bit comparison it is equal to: `int n; if (n >
// ARRAY_SIZE(a))` compares (unsigned long)n, and clang tests w_n > 32, so
// that the verifier bounds n's own register. A sign-extended x compares with
// a constant 0 <= C < 2^31 the same way unsigned (a negative x is above C
// either way) and with any int32 C the same way signed; a zero-extended x
// compares with 0 <= C < 2^31 as unsigned 32 bits.
func narrowCompare(c ir.Cond, a, b value, ct cc.Type, convert func(value, cc.Type) value) (ir.Cond, value, value, bool) {
	if scalarSize(ct) != 8 || isPtr(ct) || !cc.IsIntegerType(ct) {
		return c, a, b, false
	}
	if a.op.IsImm {
		a, b, c = b, a, c.Mirror()
	}
	if a.op.IsImm || !b.op.IsImm || a.t == nil || !cc.IsIntegerType(a.t) || scalarSize(a.t) != 4 {
		return c, a, b, false
	}
	k := convert(b, ct).op.Imm
	if !isSigned(ct) || !isSigned(a.t) {
		// Unsigned 64-bit, or a zero-extended x: unsigned 32-bit.
		if k < 0 || k >= 1<<31 {
			return c, a, b, false
		}
		switch c {
		case ir.Slt:
			c = ir.Ult
		case ir.Sgt:
			c = ir.Ugt
		case ir.Sle:
			c = ir.Ule
		case ir.Sge:
			c = ir.Uge
		}
	} else {
		// Signed 64-bit of a sign-extended x: signed 32-bit.
		if k < -1<<31 || k >= 1<<31 {
			return c, a, b, false
		}
		c = c.Signed()
	}
	return c, a, value{op: ir.Imm(k), t: a.t}, true
}

// compare lowers a relational or equality comparison into a branch.
func (fl *fnLowerer) compare(c ir.Cond, a, b cc.ExpressionNode, yes, no *ir.Block) {
	at, bt := a.Type().Decay(), b.Type().Decay()
	var ct cc.Type
	switch {
	case isPtr(at):
		ct = at
	case isPtr(bt):
		ct = bt
	default:
		ct = fl.usual(fl.typeOf(a), fl.typeOf(b))
	}
	ar, br := fl.rvalue(a), fl.rvalue(b)
	if isInt128(ct) {
		if isSigned(ct) {
			c = c.Signed()
		}
		fl.compare128(c, fl.convert(ar, ct), fl.convert(br, ct), yes, no)
		return
	}
	if nc, na, nb, ok := narrowCompare(c, ar, br, ct, fl.convert); ok {
		fl.branch(nc, ir.R(fl.toReg(na)), fl.cmpOperand(nb, true), true, yes, no)
		return
	}
	av := fl.convert(ar, ct)
	bv := fl.convert(br, ct)
	if isSigned(ct) {
		c = c.Signed()
	}
	w32 := scalarSize(ct) <= 4
	if av.op.IsImm && bv.op.IsImm {
		if ir.EvalCond(c, w32, av.op.Imm, bv.op.Imm) {
			fl.jump(yes)
		} else {
			fl.jump(no)
		}
		return
	}
	if av.op.IsImm {
		av, bv = bv, av
		c = c.Mirror()
	}
	if bv.op.IsImm && bv.op.Imm == 0 {
		// Unsigned x < 0 never holds and x >= 0 always does (x has been
		// evaluated, side effects included).
		switch c {
		case ir.Ult:
			fl.jump(no)
			return
		case ir.Uge:
			fl.jump(yes)
			return
		}
	}
	fl.branchLikely(c, ir.R(fl.toReg(av)), fl.cmpOperand(bv, w32), w32, yes, no, staticLikely(c, isPtr(ct)))
}

// cmpOperand keeps an immediate only when it fits the 32-bit imm field with
// the semantics BPF gives it (sign-extended for 64-bit compares).
func (fl *fnLowerer) cmpOperand(v value, w32 bool) ir.Operand {
	if !v.op.IsImm {
		return v.op
	}
	if w32 {
		return ir.Imm(int64(int32(v.op.Imm)))
	}
	if v.op.Imm < -1<<31 || v.op.Imm > 1<<31-1 {
		return ir.R(fl.toReg(v))
	}
	return v.op
}

// conditional lowers a ? b : c.
func (fl *fnLowerer) conditional(x *cc.ConditionalExpression, void bool) value {
	t := x.Type()
	if c, ok := fl.constVal(x.LogicalOrExpression); ok {
		return fl.constConditional(x, c != 0, void)
	}
	yes, no, join := fl.f.NewBlock(), fl.f.NewBlock(), fl.f.NewBlock()
	fl.cond(x.LogicalOrExpression, yes, no)
	if void || t.Kind() == cc.Void {
		fl.b = yes
		if x.ExpressionList != nil {
			fl.exprVoid(x.ExpressionList)
		}
		fl.jump(join)
		fl.b = no
		fl.exprVoid(x.ConditionalExpression)
		fl.jump(join)
		fl.b = join
		return value{op: ir.Imm(0), t: t}
	}
	r := fl.tmp()
	fl.b = yes
	first := x.ExpressionList
	if first == nil { // GNU a ?: b
		first = x.LogicalOrExpression
	}
	if cc.IsArithmeticType(t) {
		t = fl.typeOf(x)
	}
	v := fl.convert(fl.rvalue(first), t)
	fl.emit(&ir.Instr{Op: ir.OpMov, Dst: r, A: v.op})
	fl.jump(join)
	fl.b = no
	v = fl.convert(fl.rvalue(x.ConditionalExpression), t)
	fl.emit(&ir.Instr{Op: ir.OpMov, Dst: r, A: v.op})
	fl.jump(join)
	fl.b = join
	return value{op: ir.R(r), t: t}
}

// assign lowers = and compound assignments.
func (fl *fnLowerer) assign(x *cc.AssignmentExpression) value {
	if x.Case == cc.AssignmentExpressionCond {
		return fl.rvalue(x.ConditionalExpression)
	}
	lv := fl.lvalueOf(x.UnaryExpression)
	t := lv.t
	if x.Case == cc.AssignmentExpressionAssign {
		fl.noteReserve(t, x.AssignmentExpression)
		v := fl.rvalue(x.AssignmentExpression)
		if isAggregate(t) {
			if isInt128(t) {
				v = fl.convert(v, t)
			}
			fl.store(lv, v)
			return v
		}
		fl.checkIntToPointer(x.AssignmentExpression, t, assigning)
		v = fl.convert(v, t)
		if lv.reg == nil && !v.op.IsImm {
			// Keep the value in a register that the store does not alias.
			fl.store(lv, v)
			return fl.storedValue(lv, v)
		}
		fl.store(lv, v)
		return fl.storedValue(lv, value{op: v.op, t: t})
	}
	var op ir.ALU
	switch x.Case {
	case cc.AssignmentExpressionMul:
		op = ir.Mul
	case cc.AssignmentExpressionDiv:
		op = ir.UDiv
	case cc.AssignmentExpressionMod:
		op = ir.UMod
	case cc.AssignmentExpressionAdd:
		op = ir.Add
	case cc.AssignmentExpressionSub:
		op = ir.Sub
	case cc.AssignmentExpressionLsh:
		op = ir.Lsh
	case cc.AssignmentExpressionRsh:
		op = ir.Rsh
	case cc.AssignmentExpressionAnd:
		op = ir.And
	case cc.AssignmentExpressionXor:
		op = ir.Xor
	case cc.AssignmentExpressionOr:
		op = ir.Or
	}
	cur := fl.load(lv)
	if lv.reg != nil {
		// Snapshot: the register variable is about to be overwritten.
		cur = value{op: cur.op, t: cur.t}
	}
	rhs := fl.rvalue(x.AssignmentExpression)
	var res value
	if isPtr(t) && (op == ir.Add || op == ir.Sub) {
		res = value{op: ir.R(fl.offsetPtrValue(fl.toReg(cur), fl.convert(rhs, fl.longType(rhs.t)), elemSize(t), op == ir.Sub)), t: t}
	} else {
		var ct cc.Type
		lt := fl.promoted(lv)
		if op == ir.Lsh || op == ir.Rsh {
			ct = lt
			rhs = fl.convert(rhs, fl.promote(fl.typeOf(x.AssignmentExpression)))
		} else {
			ct = usualConversions(lt, fl.promote(fl.typeOf(x.AssignmentExpression)))
			rhs = fl.convert(rhs, ct)
		}
		if isSigned(ct) {
			switch op {
			case ir.UDiv:
				op = ir.SDiv
			case ir.UMod:
				op = ir.SMod
			case ir.Rsh:
				op = ir.Arsh
			}
		}
		if isDivision(op) && rhs.op.IsImm && rhs.op.Imm == 0 {
			fl.l.warnf(x, "division by zero")
		}
		if isInt128(ct) {
			res = fl.binop128(x, op, fl.convert(cur, ct), rhs, ct)
		} else {
			res = fl.binop(op, fl.convert(cur, ct), rhs, ct)
		}
	}
	res = fl.convert(res, t)
	fl.store(lv, res)
	return fl.storedValue(lv, res)
}

// incDec lowers ++ and -- (prefix and postfix).
func (fl *fnLowerer) incDec(n cc.ExpressionNode, e cc.ExpressionNode, inc, post bool) value {
	lv := fl.lvalueOf(e)
	t := lv.t
	cur := fl.load(lv)
	old := cur
	if post && lv.reg != nil {
		r := fl.tmp()
		fl.emit(&ir.Instr{Op: ir.OpMov, Dst: r, A: cur.op})
		old = value{op: ir.R(r), t: t}
	}
	var res value
	if isPtr(t) {
		res = value{op: ir.R(fl.offsetPtrValue(fl.toReg(cur), value{op: ir.Imm(1), t: t}, elemSize(t), !inc)), t: t}
	} else {
		ct := fl.promoted(lv)
		op := ir.Add
		if !inc {
			op = ir.Sub
		}
		if isInt128(ct) {
			if post {
				// The old value must outlive the store to lv.
				lo, hi := fl.halves(cur)
				old = fl.make128(lo, hi, t)
			}
			res = fl.binop128(n, op, cur, fl.convert(value{op: ir.Imm(1), t: fl.l.u.AST.Int}, ct), ct)
		} else {
			res = fl.convert(fl.binop(op, fl.convert(cur, ct), value{op: ir.Imm(1), t: ct}, ct), t)
		}
	}
	fl.store(lv, res)
	if post {
		return old
	}
	return fl.storedValue(lv, res)
}

// enumConstant reports whether e is an enumeration constant (type int).
func enumConstant(e cc.ExpressionNode) (*cc.Enumerator, bool) {
	if id := ident(e); id != nil {
		en, ok := id.ResolvedTo().(*cc.Enumerator)
		return en, ok
	}
	return nil, false
}

// promoted is the integer promotion of an lvalue's type, with bit-fields
// narrower than int promoting to int (C 6.3.1.1) whatever their type.
func (fl *fnLowerer) promoted(lv lvalue) cc.Type {
	if lv.field != nil && lv.field.IsBitfield() && fl.l.bitWidth(lv.field) < 32 {
		return fl.l.u.AST.Int
	}
	return fl.promote(lv.t)
}

// usualConversions is cc.UsualArithmeticConversions for arithmetic types;
// cc panics on others, which only reach here in erroneous input that cc
// already reported.
func usualConversions(a, b cc.Type) cc.Type {
	if !cc.IsArithmeticType(a) || !cc.IsArithmeticType(b) {
		if isPtr(a) {
			return a
		}
		return b
	}
	return cc.UsualArithmeticConversions(a, b)
}

// constConditional lowers c ? a : b with a constant condition: only the
// chosen operand, converted to the result type, so what is known of its
// value (such as a byte swap's zero upper bits) is kept. bpf_endian.h's
// bpf_htons(x) is __builtin_constant_p(x) ? constant : __builtin_bswap16(x).
func (fl *fnLowerer) constConditional(x *cc.ConditionalExpression, yes, void bool) value {
	t := x.Type()
	pick := x.ConditionalExpression
	if yes {
		pick = x.ExpressionList
		if pick == nil { // GNU a ?: b
			return fl.convert(fl.rvalue(x.LogicalOrExpression), fl.typeOf(x))
		}
	}
	if void || t.Kind() == cc.Void {
		fl.exprVoid(pick)
		return value{op: ir.Imm(0), t: t}
	}
	if cc.IsArithmeticType(t) {
		t = fl.typeOf(x)
	}
	return fl.convert(fl.rvalue(pick), t)
}
