package lower

import (
	"slices"
	"strings"

	"modernc.org/cc/v4"

	"github.com/bpfcc/bpfcc/ir"
)

// A cleanup is a local declared with __attribute__((cleanup(fn))): fn(&var)
// runs whenever control leaves the variable's block, in reverse order of
// declaration, as GCC and clang do. libbpf's bpf_for_each and bpf_for
// destroy their iterators so.
type cleanup struct {
	fn  *cc.Declarator
	at  cc.Node
	obj *local
}

// cleanupFunc returns the function a declaration's cleanup attribute names,
// in the declarator's attributes or the declaration's specifiers.
func cleanupFunc(decl *cc.Declaration, id *cc.InitDeclarator) (*cc.Declarator, cc.Node) {
	if d, at := cleanupIn(id.AttributeSpecifierList); d != nil {
		return d, at
	}
	if decl == nil {
		return nil, nil
	}
	for ds := decl.DeclarationSpecifiers; ds != nil; ds = ds.DeclarationSpecifiers {
		if ds.Case == cc.DeclarationSpecifiersAttr {
			if d, at := cleanupIn(ds.AttributeSpecifierList); d != nil {
				return d, at
			}
		}
	}
	return nil, nil
}

func cleanupIn(list *cc.AttributeSpecifierList) (*cc.Declarator, cc.Node) {
	for ; list != nil; list = list.AttributeSpecifierList {
		as := list.AttributeSpecifier
		if as == nil {
			continue
		}
		for vl := as.AttributeValueList; vl != nil; vl = vl.AttributeValueList {
			av := vl.AttributeValue
			if av == nil || strings.Trim(av.Token.SrcStr(), "_") != "cleanup" || av.ArgumentExpressionList == nil {
				continue
			}
			if id := ident(av.ArgumentExpressionList.AssignmentExpression); id != nil {
				d, _ := id.ResolvedTo().(*cc.Declarator)
				return d, av
			}
			return nil, av
		}
	}
	return nil, nil
}

// hasCleanup reports a variable declared with a cleanup attribute: it needs
// an address to pass to the function.
func hasCleanup(d *cc.Declarator) bool {
	return hasAttr(d.Type().Attributes(), "cleanup")
}

// addCleanup registers obj's cleanup for the current block.
func (fl *fnLowerer) addCleanup(decl *cc.Declaration, id *cc.InitDeclarator, obj *local) {
	fn, at := cleanupFunc(decl, id)
	if at == nil {
		return
	}
	if fn == nil || fn.Type().Kind() != cc.Function {
		fl.l.errorf(at, "the cleanup attribute must name a function")
		return
	}
	fl.cleanups = append(fl.cleanups, cleanup{fn: fn, at: at, obj: obj})
}

// runCleanups emits the cleanup calls of the variables declared since
// cleanup depth n, innermost first, where the current block is reachable.
func (fl *fnLowerer) runCleanups(n int) {
	for i := len(fl.cleanups) - 1; i >= n && fl.b != nil; i-- {
		c := fl.cleanups[i]
		fl.cleanupCall(c)
	}
}

// cleanupCall calls c.fn with the address of c.obj: a function of the file
// or a kernel function.
func (fl *fnLowerer) cleanupCall(c cleanup) {
	name := c.fn.Name()
	r := fl.tmp()
	fl.emit(&ir.Instr{Op: ir.OpFrameAddr, Dst: r, Slot: c.obj.slot})
	args := []ir.Operand{ir.R(r)}
	if fi, ok := fl.l.funcs[name]; ok {
		if _, ok := fl.fi.calls[name]; !ok {
			fl.fi.calls[name] = c.at.Position()
		}
		fl.emit(&ir.Instr{Op: ir.OpCallFunc, Sym: fi.name, Args: args})
		return
	}
	if ft, ok := c.fn.Type().(*cc.FunctionType); ok && fl.l.ksymFuncs[name] {
		fl.l.kfunc(c.fn, ft)
		fl.emit(&ir.Instr{Op: ir.OpCallFunc, Sym: name, Args: args, Note: name})
		return
	}
	fl.l.errorf(c.at, "cleanup function %q is neither defined in this file nor a kernel function (__ksym)", name)
}

// closeCleanups runs and forgets the cleanups of a block being left at
// its end.
func (fl *fnLowerer) closeCleanups(n int) {
	fl.runCleanups(n)
	fl.cleanups = fl.cleanups[:n]
}

// pendingGoto is a goto to a label not seen yet. From inside blocks with
// cleanups it jumps to via, which runs the cleanups of the blocks it leaves
// once the label shows which those are; every one is checked not to jump
// into such a block.
type pendingGoto struct {
	at       cc.Node
	via      *ir.Block
	cleanups []cleanup
}

// gotoLabel jumps to label name, running the cleanups of the blocks the
// jump leaves.
func (fl *fnLowerer) gotoLabel(at cc.Node, name string) {
	target := fl.labelBlock(name)
	if in, ok := fl.labelCleanups[name]; ok {
		fl.leaveTo(at, fl.cleanups, in)
		fl.jump(target)
		return
	}
	if fl.pendingGotos == nil {
		fl.pendingGotos = map[string][]pendingGoto{}
	}
	g := pendingGoto{at: at, cleanups: slices.Clone(fl.cleanups)}
	if len(fl.cleanups) == 0 || fl.b == nil {
		// Nothing to run: the label only checks the jump.
		fl.jump(target)
	} else {
		g.via = fl.f.NewBlock()
		fl.jump(g.via)
	}
	fl.pendingGotos[name] = append(fl.pendingGotos[name], g)
}

// reachLabel records the cleanups in effect at label name and completes
// the gotos that came before it.
func (fl *fnLowerer) reachLabel(at cc.Node, name string) {
	if fl.labelCleanups == nil {
		fl.labelCleanups = map[string][]cleanup{}
	}
	fl.labelCleanups[name] = slices.Clone(fl.cleanups)
	cur := fl.b
	for _, g := range fl.pendingGotos[name] {
		fl.b = g.via // nil: a check only
		fl.leaveTo(g.at, g.cleanups, fl.cleanups)
		fl.jump(fl.labelBlock(name))
	}
	delete(fl.pendingGotos, name)
	fl.b = cur
}

// leaveTo runs the cleanups of from that are not in to, which must be
// the cleanups of an enclosing block: C forbids jumping into the scope of
// a variable with a cleanup as of a variably modified type.
func (fl *fnLowerer) leaveTo(at cc.Node, from, to []cleanup) {
	if len(to) > len(from) || !slices.EqualFunc(to, from[:len(to)], func(a, b cleanup) bool { return a.obj == b.obj }) {
		fl.l.errorf(at, "goto jumps into the scope of a variable with a cleanup attribute")
		return
	}
	for i := len(from) - 1; i >= len(to) && fl.b != nil; i-- {
		fl.cleanupCall(from[i])
	}
}
