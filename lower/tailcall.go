package lower

import (
	"modernc.org/cc/v4"

	"github.com/bpfcc/bpfcc/ir"
)

// A function that returns a call to itself (`return len > 0 ? f(h ^ *p,
// p + 1, len - 1) : h;`, bpf-developer-tutorial's xxhash32) is a loop: the
// call becomes its arguments stored to the parameters and a jump back to
// the body's start, as clang's tail-call elimination makes it. BPF has no
// recursion, and with constant arguments the loop then unrolls and folds.

// tailParams records, at the body's start, the parameters a tail call to
// itself reassigns; nothing where that cannot be done: an aggregate
// parameter or result, a variadic function.
func (fl *fnLowerer) tailParams(ft *cc.FunctionType, params []*cc.Parameter) {
	if ft.IsVariadic() || isAggregate(ft.Result()) || len(params) != len(ft.Parameters()) {
		return
	}
	var locals []*local
	for _, p := range params {
		lv := fl.vars[p.Declarator]
		if p.Declarator == nil || isAggregate(p.Type()) || lv == nil {
			return
		}
		locals = append(locals, lv)
	}
	fl.tailLocals = locals
	fl.tailEntry = fl.f.NewBlock()
	fl.startBlock(fl.tailEntry)
}

// returnTail lowers `return e` where e calls the function itself, directly
// or in an arm of a conditional expression, and reports whether it did.
func (fl *fnLowerer) returnTail(e cc.ExpressionNode) bool {
	if fl.tailEntry == nil || len(fl.cleanups) > 0 || !fl.hasSelfTail(e) {
		return false
	}
	fl.lowerTail(e)
	return true
}

// hasSelfTail reports whether e or an arm of it is a call to the function.
func (fl *fnLowerer) hasSelfTail(e cc.ExpressionNode) bool {
	switch x := stripParens(e).(type) {
	case *cc.ConditionalExpression:
		return x.Case == cc.ConditionalExpressionCond && x.ExpressionList != nil &&
			(fl.hasSelfTail(x.ExpressionList) || fl.hasSelfTail(x.ConditionalExpression))
	case *cc.PostfixExpression:
		return fl.selfCall(x)
	}
	return false
}

func (fl *fnLowerer) selfCall(x *cc.PostfixExpression) bool {
	if x.Case != cc.PostfixExpressionCall {
		return false
	}
	id := ident(x.PostfixExpression)
	if id == nil {
		return false
	}
	d, _ := id.ResolvedTo().(*cc.Declarator)
	return d != nil && d.Name() == fl.fi.name && d.Type().Kind() == cc.Function && len(callArgs(x)) == len(fl.tailLocals)
}

// lowerTail returns e's value, or jumps back to the body's start with the
// parameters set to a self call's arguments.
func (fl *fnLowerer) lowerTail(e cc.ExpressionNode) {
	switch x := stripParens(e).(type) {
	case *cc.ConditionalExpression:
		if x.Case == cc.ConditionalExpressionCond && x.ExpressionList != nil {
			yes, no := fl.f.NewBlock(), fl.f.NewBlock()
			fl.cond(x.LogicalOrExpression, yes, no)
			fl.b = yes
			fl.lowerTail(x.ExpressionList)
			fl.b = no
			fl.lowerTail(x.ConditionalExpression)
			return
		}
	case *cc.PostfixExpression:
		if fl.selfCall(x) {
			// All arguments first: each may read a parameter.
			var vals []value
			for i, a := range callArgs(x) {
				v := fl.convert(fl.rvalue(a), fl.tailLocals[i].typ)
				vals = append(vals, value{op: ir.R(fl.toReg(v)), t: v.t})
			}
			for i, lv := range fl.tailLocals {
				fl.storeVar(lv, vals[i])
			}
			fl.jump(fl.tailEntry)
			fl.tailUsed = true
			return
		}
	}
	v := fl.convert(fl.rvalue(e), fl.ret)
	fl.emitRet(v.op)
}

// dropTailEntry joins the body's start back to the entry block when no
// tail call jumps there, so that functions without one are lowered as
// before.
func (fl *fnLowerer) dropTailEntry() {
	if fl.tailEntry == nil || fl.tailUsed {
		return
	}
	entry := fl.f.Blocks[0]
	if t := entry.Term(); t == nil || t.Op != ir.OpJump || t.Then != fl.tailEntry {
		return
	}
	entry.Instrs = append(entry.Instrs[:len(entry.Instrs)-1], fl.tailEntry.Instrs...)
	fl.tailEntry.Instrs = nil
	for i, b := range fl.f.Blocks {
		if b == fl.tailEntry {
			fl.f.Blocks = append(fl.f.Blocks[:i], fl.f.Blocks[i+1:]...)
			break
		}
	}
	for i, b := range fl.f.Blocks {
		b.ID = i
	}
}
