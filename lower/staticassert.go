package lower

import "modernc.org/cc/v4"

// staticAssert decides a _Static_assert in a function that cc could not
// (frontend's translateLateAsserts): as clang does, a const integer local
// with a constant initializer is a constant there, also to
// __builtin_constant_p (bpf_experimental.h's bpf_assert_range asserts
// __builtin_constant_p(rhs_var) of such a copy of its bound).
func (fl *fnLowerer) staticAssert(sa *cc.StaticAssertDeclaration) {
	cond, msg, ok := fl.l.u.LateStaticAssert(sa)
	if !ok {
		return // cc decided it
	}
	if v, ok := fl.assertValue(cond); !ok || v == 0 {
		fl.l.errorf(cond, "assertion failed: %s", msg)
	}
}

// assertValue evaluates an assertion's condition: a constant, possibly
// through const locals, or __builtin_constant_p, !, && or || of one.
func (fl *fnLowerer) assertValue(e cc.ExpressionNode) (int64, bool) {
	e = stripParens(e)
	if c, ok := e.(*cc.PostfixExpression); ok && c.Case == cc.PostfixExpressionCall && c.ArgumentExpressionList != nil && c.ArgumentExpressionList.ArgumentExpressionList == nil {
		if id := ident(c.PostfixExpression); id != nil && id.Token.SrcStr() == "__builtin_constant_p" {
			if _, ok := fl.assertValue(c.ArgumentExpressionList.AssignmentExpression); ok {
				return 1, true
			}
			return 0, true
		}
	}
	if u, ok := e.(*cc.UnaryExpression); ok && u.Case == cc.UnaryExpressionNot {
		if v, ok := fl.assertValue(u.CastExpression); ok {
			return boolInt(v == 0), true
		}
		return 0, false
	}
	if b, ok := e.(*cc.LogicalAndExpression); ok && b.Case == cc.LogicalAndExpressionLAnd {
		l, lok := fl.assertValue(b.LogicalAndExpression)
		r, rok := fl.assertValue(b.InclusiveOrExpression)
		return boolInt(l != 0 && r != 0), lok && rok
	}
	if b, ok := e.(*cc.LogicalOrExpression); ok && b.Case == cc.LogicalOrExpressionLOr {
		l, lok := fl.assertValue(b.LogicalOrExpression)
		r, rok := fl.assertValue(b.LogicalAndExpression)
		return boolInt(l != 0 || r != 0), lok && rok
	}
	return fl.constVal(e)
}

func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
