package opt

import "github.com/bpfcc/bpfcc/ir"

// propagateCopies replaces uses of a register copied by "mov d, s" with s:
// within a block while neither is redefined, and everywhere when d has that
// single definition and s is a parameter never redefined.
func propagateCopies(f *ir.Func, _ *passCtx) {
	defs := defCounts(f)
	isParam := map[ir.Reg]bool{}
	for _, p := range f.Params {
		isParam[p] = true
	}
	global := map[ir.Reg]ir.Reg{}
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			if in.Op == ir.OpMov && !in.A.IsImm && defs[in.Dst] == 1 && isParam[in.A.Reg] && defs[in.A.Reg] == 1 && !isParam[in.Dst] {
				global[in.Dst] = in.A.Reg
			}
		}
	}
	for _, b := range f.Blocks {
		copyOf := map[ir.Reg]ir.Reg{}
		for _, in := range b.Instrs {
			forEachUse(in, func(o *ir.Operand) {
				if s, ok := copyOf[o.Reg]; ok {
					o.Reg = s
				} else if s, ok := global[o.Reg]; ok {
					o.Reg = s
				}
			})
			if d := in.Dst; d != 0 {
				delete(copyOf, d)
				for k, v := range copyOf {
					if v == d {
						delete(copyOf, k)
					}
				}
				if in.Op == ir.OpMov && !in.A.IsImm && in.A.Reg != d {
					copyOf[d] = in.A.Reg
				}
			}
		}
	}
}
