package opt

import "github.com/bpfcc/bpfcc/ir"

// resolveIndirect makes direct the calls through a function pointer
// (ir.IndirectSym) whose pointer holds one known function: a register
// defined once, by the function's address or a copy of such a register,
// as a local assigned once or an inlined function's parameter is. It runs
// after inlining, which binds the parameters. A function with calls left
// runs propagation early, which finds a pointer stored in a local struct,
// and the calls made direct so are inlined (Inline again); codegen
// rejects what is left after optimisation (indirect2 may resolve more).
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
		c.defined = map[string]bool{}
		for _, f := range m.Funcs {
			c.defined[f.Name] = true
		}
	}
	resolved := false
	for _, f := range m.Funcs {
		left := resolveIndirectIn(f, known)
		if left == 0 || f.Naked {
			continue
		}
		// A pointer stored in a local struct and loaded back is found
		// by propagation, run here ahead of its turn, so that the call
		// it makes direct is inlined as clang's SROA and inlining
		// would (opentelemetry-go-instrumentation's start_span calls a
		// parser that returns a constant: a BPF call to it left the
		// verifier walking every path after it, 6.6x clang's work).
		ensureEntry(f, c)
		removeUnreachable(f, c)
		propagateValues(f, c)
		resolved = resolved || resolveIndirectIn(f, known) < left
	}
	if resolved && c != nil {
		return Inline(m, c.optLevel)
	}
	return nil
}

// resolveIndirectIn makes f's resolvable indirect calls direct and
// returns how many are left.
func resolveIndirectIn(f *ir.Func, known map[string]bool) int {
	var calls []*ir.Instr
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			if in.Op == ir.OpCallFunc && in.Sym == ir.IndirectSym {
				calls = append(calls, in)
			}
		}
	}
	if len(calls) == 0 {
		return 0
	}
	addr := newSymAddrs(f)
	target := func(op ir.Operand) string {
		if d := addr.of(op); d != nil && (d.Op == ir.OpSymAddr || d.Op == ir.OpFuncAddr) && known[d.Sym] {
			return d.Sym
		}
		return ""
	}
	left := 0
	for _, in := range calls {
		if sym := target(in.Args[0]); sym != "" {
			in.Sym, in.Args = sym, in.Args[1:]
		} else {
			left++
		}
	}
	return left
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
	foldFuncAddrTests(f, c.defined)
}

// foldFuncAddrTests decides the branches that compare the address of a
// function the module defines with 0: it is never NULL (start_span tests
// its parser's pointer before the call; the NULL arm, a new span's whole
// setup, was left for the verifier to walk). A kfunc's address may be 0
// (a weak one the kernel lacks: bpf_ksym_exists), so only the module's
// own functions count.
func foldFuncAddrTests(f *ir.Func, defined map[string]bool) {
	addr := newSymAddrs(f)
	isFunc := func(op ir.Operand) bool {
		d := addr.of(op)
		return d != nil && d.Op == ir.OpFuncAddr && defined[d.Sym]
	}
	for _, b := range f.Blocks {
		t := b.Term()
		if t == nil || t.Op != ir.OpBranch || (t.Cond != ir.Eq && t.Cond != ir.Ne) || !t.B.IsImm || t.B.Imm != 0 || !isFunc(t.A) {
			continue
		}
		to := t.Then // ne 0: taken
		if t.Cond == ir.Eq {
			to = t.Else
		}
		*t = ir.Instr{Op: ir.OpJump, Then: to, Pos: t.Pos, Note: t.Note}
	}
}

// symAddrs finds the symbol address a register holds: defined once by
// an OpSymAddr or OpFuncAddr at offset 0, or by a copy of such a register
// (as a local assigned once or an inlined function's parameter is).
type symAddrs struct {
	def  map[ir.Reg]*ir.Instr // a register's only definition
	many map[ir.Reg]bool      // defined more than once, or a parameter
}

func newSymAddrs(f *ir.Func) symAddrs {
	a := symAddrs{def: map[ir.Reg]*ir.Instr{}, many: map[ir.Reg]bool{}}
	for _, p := range f.Params {
		a.many[p] = true
	}
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			if r := in.Dst; r != 0 {
				if _, ok := a.def[r]; ok {
					a.many[r] = true
				}
				a.def[r] = in
			}
		}
	}
	return a
}

// of returns the address instruction op's value comes from, or nil.
func (a symAddrs) of(op ir.Operand) *ir.Instr {
	for range 32 { // a chain of copies, never a cycle of them
		if op.IsImm || a.many[op.Reg] || a.def[op.Reg] == nil {
			return nil
		}
		switch d := a.def[op.Reg]; {
		case d.Op == ir.OpMov:
			op = d.A
		case (d.Op == ir.OpSymAddr || d.Op == ir.OpFuncAddr) && d.Off == 0:
			return d
		default:
			return nil
		}
	}
	return nil
}
