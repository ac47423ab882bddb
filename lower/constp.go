package lower

import (
	"modernc.org/cc/v4"

	"github.com/bpfcc/bpfcc/frontend"
	"github.com/bpfcc/bpfcc/ir"
)

// __builtin_constant_p is decided by clang after inlining and constant
// folding: libbpf's bpf_tail_call_static asks it of a parameter of an
// always-inline function, which is a constant at every call. cc folds it
// to 0 (with every expression around it) before inlining, so lower leaves
// such calls to codegen as calls of ir.ConstPSym and keeps cc's folded
// value out of the expressions that contain one.

// lateConstP reports whether e contains a __builtin_constant_p that cc
// could not fold to 1.
func (fl *fnLowerer) lateConstP(e cc.ExpressionNode) bool {
	if !fl.fi.usesConstP || e == nil {
		return false
	}
	if v, ok := fl.constPMemo[e]; ok {
		return v
	}
	r := false
	frontend.WalkAST(e, func(n any) bool {
		if c, ok := n.(*cc.PostfixExpression); ok && isLateConstP(c) {
			r = true
		}
		return !r
	})
	if fl.constPMemo == nil {
		fl.constPMemo = map[cc.ExpressionNode]bool{}
	}
	fl.constPMemo[e] = r
	return r
}

// isLateConstP reports a call __builtin_constant_p(x) with x not a
// constant for cc.
func isLateConstP(c *cc.PostfixExpression) bool {
	if c.Case != cc.PostfixExpressionCall || c.ArgumentExpressionList == nil {
		return false
	}
	id := ident(c.PostfixExpression)
	if id == nil || id.Token.SrcStr() != "__builtin_constant_p" {
		return false
	}
	arg := c.ArgumentExpressionList.AssignmentExpression
	if _, ok := constValue(arg); ok {
		return false
	}
	return foldableLater(arg)
}

// foldableLater reports whether e is made of variables and constants
// only, so that inlining and value propagation may turn it into a
// constant; a memory access (bpf_htons(ip->tot_len)) or a call never is,
// and keeps cc's answer, 0, with what lower knows of the other operand.
func foldableLater(e cc.ExpressionNode) bool {
	hasVar, memory := false, false
	frontend.WalkAST(e, func(n any) bool {
		switch x := n.(type) {
		case *cc.PostfixExpression:
			switch x.Case {
			case cc.PostfixExpressionPSelect, cc.PostfixExpressionIndex, cc.PostfixExpressionCall:
				memory = true
			}
		case *cc.UnaryExpression:
			if x.Case == cc.UnaryExpressionDeref {
				memory = true
			}
		case *cc.PrimaryExpression:
			if x.Case == cc.PrimaryExpressionIdent {
				switch d := x.ResolvedTo().(type) {
				case *cc.Parameter:
					hasVar = true
				case *cc.Declarator:
					switch {
					case !d.IsStatic() && !d.IsExtern() && d.Linkage() == cc.None:
						hasVar = true // a local
					case (d.IsConst() || isConstType(d.Type())) && !d.IsVolatile() && !isVolatileType(d.Type()) && cc.IsIntegerType(d.Type()):
						// A const global (`static const size_t n =
						// sizeof(x)`, HID's XPPen driver): its load from
						// .rodata folds, as clang folds it.
						hasVar = true
					}
				}
			}
		}
		return !memory
	})
	return hasVar && !memory
}

// usesLateConstP reports whether a function body has such a call.
func usesLateConstP(fd *cc.FunctionDefinition) bool {
	found := false
	frontend.WalkAST(fd, func(n any) bool {
		if c, ok := n.(*cc.PostfixExpression); ok && isLateConstP(c) {
			found = true
		}
		return !found
	})
	return found
}

// constantP lowers __builtin_constant_p(e) for an e cc did not fold: a
// call codegen answers once inlining and folding are done.
func (fl *fnLowerer) constantP(x *cc.PostfixExpression, arg cc.ExpressionNode, t cc.Type) value {
	if !arg.Pure() {
		return value{op: ir.Imm(0), t: t} // side effects are never evaluated
	}
	v := fl.convert(fl.rvalue(arg), fl.l.u.AST.Long)
	return fl.emitCall(&ir.Instr{Op: ir.OpCallFunc, Sym: ir.ConstPSym, Args: []ir.Operand{v.op}, Note: "__builtin_constant_p"}, t)
}
