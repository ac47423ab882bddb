package lower

import (
	"modernc.org/cc/v4"

	"github.com/bpfcc/bpfcc/ir"
)

// cleanupVar is a local declared with __attribute__((cleanup(fn))): fn is
// called with the local's address whenever its block is left (the end of
// the block, break, continue, return), as GCC and clang do. libbpf's
// bpf_for() destroys its iterator this way.
type cleanupVar struct {
	fn  *cc.Declarator
	lv  *local
	pos cc.Node
}

// cleanupFunc returns the function named by a cleanup attribute of id, or
// nil.
func cleanupFunc(id *cc.InitDeclarator) *cc.Declarator {
	for as := id.AttributeSpecifierList; as != nil; as = as.AttributeSpecifierList {
		if as.AttributeSpecifier == nil {
			continue
		}
		for vl := as.AttributeSpecifier.AttributeValueList; vl != nil; vl = vl.AttributeValueList {
			av := vl.AttributeValue
			if av == nil || av.ArgumentExpressionList == nil {
				continue
			}
			if n := av.Token.SrcStr(); n != "cleanup" && n != "__cleanup__" {
				continue
			}
			if pe := ident(av.ArgumentExpressionList.AssignmentExpression); pe != nil {
				d, _ := pe.ResolvedTo().(*cc.Declarator)
				return d
			}
		}
	}
	return nil
}

// runCleanups calls the cleanup functions of the locals from depth on,
// innermost first, where control leaves their blocks.
func (fl *fnLowerer) runCleanups(depth int) {
	for i := len(fl.cleanups) - 1; i >= depth && fl.b != nil; i-- {
		c := fl.cleanups[i]
		addr := fl.addr(fl.lvalueOfLocal(c.lv))
		fl.callCleanup(c, ir.R(addr))
	}
}

// callCleanup calls c.fn(arg): a function of the file or a kernel function.
func (fl *fnLowerer) callCleanup(c cleanupVar, arg ir.Operand) {
	name := c.fn.Name()
	ft, ok := c.fn.Type().(*cc.FunctionType)
	switch {
	case !ok || len(ft.Parameters()) != 1:
		fl.l.errorf(c.pos, "cleanup function %q must take one parameter, the variable's address", name)
		return
	case fl.l.funcs[name] != nil:
		if _, seen := fl.fi.calls[name]; !seen {
			fl.fi.calls[name] = c.pos.Position()
		}
	case fl.l.ksymFuncs[name]:
		fl.l.kfunc(c.fn, ft)
	default:
		fl.l.errorf(c.pos, "cleanup function %q is neither defined in this file nor a kernel function (__ksym)", name)
		return
	}
	fl.emit(&ir.Instr{Op: ir.OpCallFunc, Sym: name, Args: []ir.Operand{arg}, Note: "cleanup"})
}
