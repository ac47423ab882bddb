package lower

import (
	"modernc.org/cc/v4"
)

// cc gives every enum type the representation int, while clang and gcc
// give an enum without negative enumerators unsigned int (its constants
// stay int). cc's expression types are right everywhere else, so lower
// recomputes the type of an expression only when an operand of enum type
// takes part in it; typeOf does that, bottom-up, with C's rules.

// typeOf is the C type of arithmetic expression e as clang sees it.
func (fl *fnLowerer) typeOf(e cc.ExpressionNode) cc.Type {
	if e == nil {
		return nil
	}
	if !fl.hasEnumOperand(e) {
		return e.Type()
	}
	if t, ok := fl.types[e]; ok {
		return t
	}
	t := fl.deriveType(e)
	fl.types[e] = t
	return t
}

// hasEnumOperand reports whether a non-constant operand of enum type
// occurs in e (memoised).
func (fl *fnLowerer) hasEnumOperand(e cc.ExpressionNode) bool {
	if v, ok := fl.enumOps[e]; ok {
		return v
	}
	r := bitfield32Type(e, fl.l.u.AST) != nil
	if e.Type().Kind() == cc.Enum {
		if _, isConst := enumConstant(e); !isConst {
			r = true
		}
	}
	if !r {
		for _, c := range append(operands(e), conditions(e)...) {
			if c != nil && fl.hasEnumOperand(c) {
				r = true
				break
			}
		}
	}
	fl.enumOps[e] = r
	return r
}

// operands lists the arithmetic sub-expressions whose types decide e's.
func operands(e cc.ExpressionNode) []cc.ExpressionNode {
	switch x := e.(type) {
	case *cc.PrimaryExpression:
		if x.Case == cc.PrimaryExpressionExpr {
			return []cc.ExpressionNode{x.ExpressionList}
		}
	case *cc.ExpressionList:
		var last cc.ExpressionNode
		for ; x != nil; x = x.ExpressionList {
			last = x.AssignmentExpression
		}
		return []cc.ExpressionNode{last}
	case *cc.UnaryExpression:
		switch x.Case {
		case cc.UnaryExpressionPlus, cc.UnaryExpressionMinus, cc.UnaryExpressionCpl:
			return []cc.ExpressionNode{x.CastExpression}
		case cc.UnaryExpressionPostfix:
			return []cc.ExpressionNode{x.PostfixExpression}
		}
	case *cc.PostfixExpression:
		if x.Case == cc.PostfixExpressionPrimary {
			return []cc.ExpressionNode{x.PrimaryExpression}
		}
	case *cc.CastExpression:
		if x.Case == cc.CastExpressionUnary {
			return []cc.ExpressionNode{x.UnaryExpression}
		}
	case *cc.MultiplicativeExpression:
		return []cc.ExpressionNode{x.MultiplicativeExpression, x.CastExpression}
	case *cc.AdditiveExpression:
		return []cc.ExpressionNode{x.AdditiveExpression, x.MultiplicativeExpression}
	case *cc.ShiftExpression:
		return []cc.ExpressionNode{x.ShiftExpression}
	case *cc.AndExpression:
		return []cc.ExpressionNode{x.AndExpression, x.EqualityExpression}
	case *cc.ExclusiveOrExpression:
		return []cc.ExpressionNode{x.ExclusiveOrExpression, x.AndExpression}
	case *cc.InclusiveOrExpression:
		return []cc.ExpressionNode{x.InclusiveOrExpression, x.ExclusiveOrExpression}
	case *cc.ConditionalExpression:
		if x.Case == cc.ConditionalExpressionCond {
			first := x.ExpressionList
			if first == nil {
				first = x.LogicalOrExpression
			}
			return []cc.ExpressionNode{first, x.ConditionalExpression}
		}
		return []cc.ExpressionNode{x.LogicalOrExpression}
	case *cc.ConstantExpression:
		return []cc.ExpressionNode{x.ConditionalExpression}
	}
	return nil
}

// conditions lists sub-expressions that do not decide e's type but can
// still hold enum operands cc folds wrongly (comparisons, logic, casts).
func conditions(e cc.ExpressionNode) []cc.ExpressionNode {
	switch x := e.(type) {
	case *cc.RelationalExpression:
		return []cc.ExpressionNode{x.RelationalExpression, x.ShiftExpression}
	case *cc.EqualityExpression:
		return []cc.ExpressionNode{x.EqualityExpression, x.RelationalExpression}
	case *cc.LogicalAndExpression:
		return []cc.ExpressionNode{x.LogicalAndExpression, x.InclusiveOrExpression}
	case *cc.LogicalOrExpression:
		return []cc.ExpressionNode{x.LogicalOrExpression, x.LogicalAndExpression}
	case *cc.UnaryExpression:
		if x.Case == cc.UnaryExpressionNot {
			return []cc.ExpressionNode{x.CastExpression}
		}
	case *cc.CastExpression:
		if x.Case == cc.CastExpressionCast {
			return []cc.ExpressionNode{x.CastExpression}
		}
	case *cc.ConditionalExpression:
		if x.Case == cc.ConditionalExpressionCond {
			return []cc.ExpressionNode{x.LogicalOrExpression}
		}
	case *cc.ShiftExpression:
		return []cc.ExpressionNode{x.AdditiveExpression}
	}
	return nil
}

// deriveType applies C's typing rules to e, using typeOf for operands.
func (fl *fnLowerer) deriveType(e cc.ExpressionNode) cc.Type {
	if bt := bitfield32Type(e, fl.l.u.AST); bt != nil {
		return bt
	}
	t := e.Type()
	if !cc.IsArithmeticType(t) && t.Kind() != cc.Enum {
		return t
	}
	ops := operands(e)
	if len(ops) == 0 {
		if t.Kind() == cc.Enum {
			return fl.objType(e)
		}
		return t
	}
	switch x := e.(type) {
	case *cc.RelationalExpression, *cc.EqualityExpression, *cc.LogicalAndExpression, *cc.LogicalOrExpression:
		return t
	case *cc.CastExpression:
		if x.Case == cc.CastExpressionCast {
			return x.TypeName.Type()
		}
	case *cc.UnaryExpression:
		if x.Case == cc.UnaryExpressionNot {
			return t
		}
		if x.Case == cc.UnaryExpressionPostfix {
			return fl.typeOf(ops[0])
		}
		return fl.promote(fl.typeOf(ops[0]))
	case *cc.ShiftExpression:
		if x.Case == cc.ShiftExpressionAdd || ops[0] == nil {
			return t
		}
		return fl.promote(fl.typeOf(ops[0]))
	case *cc.MultiplicativeExpression, *cc.AdditiveExpression, *cc.AndExpression,
		*cc.ExclusiveOrExpression, *cc.InclusiveOrExpression:
		if len(ops) < 2 || ops[0] == nil || ops[1] == nil {
			return t
		}
		return fl.usual(fl.typeOf(ops[0]), fl.typeOf(ops[1]))
	case *cc.ConditionalExpression:
		if len(ops) == 2 {
			a, b := fl.typeOf(ops[0]), fl.typeOf(ops[1])
			if cc.IsArithmeticType(a) && cc.IsArithmeticType(b) {
				return fl.usual(a, b)
			}
			return t
		}
		return fl.typeOf(ops[0])
	}
	if len(ops) == 1 && ops[0] != nil {
		return fl.typeOf(ops[0])
	}
	if t.Kind() == cc.Enum {
		return fl.objType(e)
	}
	return t
}

// promote is the integer promotion, with unsigned enums as unsigned int.
func (fl *fnLowerer) promote(t cc.Type) cc.Type {
	if et, ok := t.(*cc.EnumType); ok {
		if unsignedEnum(et) {
			return fl.l.u.AST.UInt
		}
		return fl.l.u.AST.Int
	}
	if !cc.IsIntegerType(t) {
		return t
	}
	return cc.IntegerPromotion(t)
}

// usual is the usual arithmetic conversion of two operand types.
func (fl *fnLowerer) usual(a, b cc.Type) cc.Type {
	return usualConversions(fl.promote(a), fl.promote(b))
}

// bitfield32Type is the type clang and gcc give a 32-bit-wide bit-field
// declared with a 64-bit type (long long x : 32): int or unsigned int, as
// for narrower bit-fields, where cc keeps the declared type. nil for any
// other expression.
func bitfield32Type(e cc.ExpressionNode, ast *cc.AST) cc.Type {
	x, ok := unwrap(e).(*cc.PostfixExpression)
	if !ok || (x.Case != cc.PostfixExpressionSelect && x.Case != cc.PostfixExpressionPSelect) {
		return nil
	}
	f := x.Field()
	if f == nil || !f.IsBitfield() || f.ValueBits() != 32 || f.Type().Size() != 8 {
		return nil
	}
	if cc.IsSignedInteger(f.Type()) {
		return ast.Int
	}
	return ast.UInt
}
