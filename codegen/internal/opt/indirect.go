package opt

import "github.com/bpfcc/bpfcc/ir"

// resolveIndirect makes direct the calls through a function pointer
// (ir.IndirectSym) whose pointer holds one known function: a register
// defined once, by the function's address or a copy of such a register,
// as a local assigned once or an inlined function's parameter is. It runs
// after inlining, which binds the parameters; codegen rejects what is
// left. Linear: one walk to count definitions, one to rewrite.
func resolveIndirect(m *ir.Module, c *passCtx) error {
	known := map[string]bool{}
	for _, f := range m.Funcs {
		known[f.Name] = true
	}
	for _, k := range m.Kfuncs {
		known[k.Name] = true
	}
	if c != nil {
		c.funcs = known
	}
	for _, f := range m.Funcs {
		resolveIndirectIn(f, known)
	}
	return nil
}

func resolveIndirectIn(f *ir.Func, known map[string]bool) {
	var calls []*ir.Instr
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			if in.Op == ir.OpCallFunc && in.Sym == ir.IndirectSym {
				calls = append(calls, in)
			}
		}
	}
	if len(calls) == 0 {
		return
	}
	// def is a register's only definition; nil when it has several (or
	// is a parameter, defined by the caller).
	def := map[ir.Reg]*ir.Instr{}
	many := map[ir.Reg]bool{}
	for _, p := range f.Params {
		many[p] = true
	}
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			if r := in.Dst; r != 0 {
				if _, ok := def[r]; ok {
					many[r] = true
				}
				def[r] = in
			}
		}
	}
	target := func(op ir.Operand) string {
		for range 32 { // a chain of copies, never a cycle of them
			if op.IsImm || many[op.Reg] || def[op.Reg] == nil {
				return ""
			}
			switch d := def[op.Reg]; {
			case d.Op == ir.OpMov:
				op = d.A
			case (d.Op == ir.OpSymAddr || d.Op == ir.OpFuncAddr) && d.Off == 0 && known[d.Sym]:
				return d.Sym
			default:
				return ""
			}
		}
		return ""
	}
	for _, in := range calls {
		if sym := target(in.Args[0]); sym != "" {
			in.Sym, in.Args = sym, in.Args[1:]
		}
	}
}

// resolveStoredIndirect (pass "indirect2") makes direct the calls whose
// pointer propagation found: stored in a local struct and loaded back
// (opentelemetry-go-instrumentation's start_span(&params) calls
// params->get_parent_span_context_fn), as clang's SROA folds it. The
// callee stays a BPF function (inlining has run); a pointer that holds
// NULL leaves its call in a branch propagation removed. What remains is
// codegen's error.
func resolveStoredIndirect(f *ir.Func, c *passCtx) {
	if c == nil || c.funcs == nil {
		return
	}
	resolveIndirectIn(f, c.funcs)
}
