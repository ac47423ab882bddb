// Package opt is bpfcc's IR optimiser: the passes that rewrite an
// ir.Module before instruction selection, run in the order of one table
// (passes) whose ordering constraints are a second, checked table
// (passOrder).
package opt

import (
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/bpfcc/bpfcc/ir"
)

// Config configures Run.
type Config struct {
	// CPU is the eBPF instruction set version, 1..4.
	CPU int
	// OptLevel 0 runs only the required passes.
	OptLevel int
	// AfterPass, when set, sees the IR after every pass that ran, with
	// the time the pass took: f is the function a function pass rewrote,
	// nil after a module pass (m is the whole module). It is how a
	// caller dumps the IR after a pass or times the passes.
	AfterPass func(pass string, m *ir.Module, f *ir.Func, took time.Duration)
	// CheckModule, when set, checks the module after the module passes
	// (inlining) and before the function passes, whose errors Run
	// returns as they are: codegen's check of argument registers, which
	// must see every call inlining left, before passes delete dead ones.
	CheckModule func(m *ir.Module) error
}

// A pass is one entry of the table. Exactly one of mod, fn and loop is
// set. Required passes run at every optimisation level because later
// stages rely on what they establish.
type pass struct {
	name string
	// mod is a module pass; module passes precede the function passes.
	mod func(m *ir.Module, c *passCtx) error
	// fn is a function pass.
	fn func(f *ir.Func, c *passCtx)
	// loop is a loop entry's step: while it reports progress (n counts
	// the rounds), the body passes run after it.
	loop     func(f *ir.Func, c *passCtx, n int) bool
	body     []pass
	required bool
}

// passCtx is what passes may consult.
type passCtx struct {
	cpu      int
	optLevel int
	// consts are the globals whose contents loads may be folded from
	// (see foldableGlobal), by name; nil when none are.
	consts map[string]*ir.Global
	// externs are the variables the loader places (.kconfig, .ksyms,
	// the static linker's): their ld_imm64 must keep offset 0, since
	// libbpf overwrites the immediate with the variable's own offset.
	externs map[string]bool
	// funcs are the module's functions and kfuncs by name, once the
	// indirect pass has run: the targets a call may be made direct to.
	funcs map[string]bool
	// defined are the module's own functions, whose addresses are not 0.
	defined map[string]bool
}

// passes run in this order; passOrder says why where the order matters.
// A name ending in a digit is the pass's second run.
var passes = []pass{
	{name: "inline", mod: inlinePass, required: true},
	{name: "indirect", mod: resolveIndirect, required: true},
	{name: "entry", fn: ensureEntry, required: true},
	{name: "unreachable", fn: removeUnreachable, required: true},
	{name: "fold", fn: foldConstants},
	{name: "copyprop", fn: propagateCopies},
	{name: "unroll", loop: unrollLoops, body: []pass{
		{name: "unroll.values", fn: propagateValues},
		{name: "unroll.unreachable", fn: removeUnreachable},
	}},
	{name: "frame", fn: foldFrameAddrs},
	{name: "fold2", fn: foldConstants},
	{name: "strcmp", fn: foldStrcmps},
	{name: "values", fn: propagateValues},
	{name: "indirect2", fn: resolveStoredIndirect},
	{name: "memops", fn: expandMemOps},
	{name: "constp", fn: resolveConstP},
	{name: "loads", fn: forwardLoads},
	{name: "dce", fn: eliminateDeadCode},
	{name: "promote", fn: promoteSlots},
	{name: "cfg", fn: simplifyCFG},
	{name: "ivs", fn: widenInductions},
	{name: "constp2", fn: finishConstP, required: true},
	{name: "values2", fn: propagateValues},
	{name: "memops2", fn: finishMemOps, required: true},
	{name: "strcmp2", fn: finishStrcmps, required: true},
	{name: "addrs", fn: foldAddresses},
	{name: "loads2", fn: forwardLoads},
	{name: "unsign", fn: unsignLoads},
	{name: "exts", fn: dropExtensions},
	{name: "signcmp", fn: unsignCompares},
	{name: "bittest", fn: testBits},
	{name: "selectbits", fn: selectBits},
	{name: "symaddrs", fn: reuseSymAddrs},
	{name: "cse", fn: reuseValues},
	{name: "addrs2", fn: foldAddresses},
	{name: "loads3", fn: forwardLoads},
	{name: "exts2", fn: dropExtensions},
	{name: "dce2", fn: eliminateDeadCode},
	{name: "merge", fn: mergeStores},
	{name: "copies", fn: widenCopies},
	{name: "cfg2", fn: simplifyCFG},
	{name: "dce3", fn: eliminateDeadCode},
	{name: "armops", fn: computeInArms},
	{name: "sinkcore", fn: sinkCoreRelocs},
	{name: "sink", fn: sinkToUses},
	{name: "decide", fn: decideBranches},
	{name: "memmoves", fn: orderMemmoves},
	{name: "legalize", fn: legalize, required: true},
	{name: "unreachable2", fn: removeUnreachable, required: true},
}

// passOrder lists the ordering constraints of passes: a runs before b.
// TestPassOrder checks them against the table, as Go's ssa checks its
// passOrder.
var passOrder = []struct{ a, b, why string }{
	{"inline", "entry", "function passes see the inlined bodies"},
	{"inline", "indirect", "inlining binds the function-pointer parameters to the functions passed"},
	{"values", "indirect2", "propagation forwards a function's address stored in a local to the load the call goes through"},
	{"inline", "constp", "inlining makes __builtin_constant_p arguments constant"},
	{"entry", "unreachable", "reachability walks from an entry no branch targets"},
	{"entry", "unroll", "dominators are computed from the entry"},
	{"entry", "values", "propagation starts from the entry's state"},
	{"copyprop", "unroll", "the trip-count simulation looks through copies"},
	{"unroll", "values", "the unrolled copies' induction variables fold"},
	{"unroll", "ivs", "the loops unrolling removes need no widening"},
	{"values", "ivs", "loop bounds are constants"},
	{"frame", "promote", "accesses through a register holding the address are the slot's own"},
	{"dce", "promote", "dead address computations no longer take a slot's address"},
	{"promote", "values2", "propagation forwards the copies that replace the loads"},
	{"ivs", "values2", "propagation forwards the copies that replace the extensions"},
	{"frame", "dce", "dead-code elimination drops the folded address computations"},
	{"fold", "constp", "folding makes __builtin_constant_p arguments constant"},
	{"fold", "cfg", "simplifyCFG sees the branches folding decided"},
	{"values", "cfg", "simplifyCFG sees the branches propagation decided"},
	{"cfg", "values2", "the second propagation runs on the simplified CFG"},
	{"constp", "constp2", "constants are answered 1 before the rest are answered 0"},
	{"constp2", "values2", "the last propagation folds the branches that test the answer"},
	{"values2", "cfg2", "simplifyCFG sees the branches propagation decided"},
	{"inline", "memops", "inlining binds a memcpy's size parameter to the caller's constant"},
	{"values", "memops", "propagation makes the size a constant"},
	{"values2", "memops2", "the last propagation has run: a size still unknown is an error"},
	{"memops2", "addrs", "the expanded copies' addresses fold like the others"},
	{"values2", "legalize", "legalize runs after what could re-create what it removes"},
	{"cfg2", "legalize", "legalize runs after what could re-create what it removes"},
	{"cfg2", "dce3", "threading leaves the copies for the paths it bypassed dead"},
	{"dce3", "decide", "a flag's other definitions are gone once the paths that made them are"},
	{"cfg2", "armops", "the selects' arms are final once jumps are threaded"},
	{"armops", "decide", "a constant computed in an arm decides the branches after the join"},
	{"armops", "legalize", "legalize runs after what could re-create what it removes"},
	{"decide", "legalize", "legalize runs after what could re-create what it removes"},
	{"cfg2", "sink", "a block's only predecessor is known once jumps are threaded"},
	{"addrs2", "memmoves", "a memmove's two sides share the base register once addresses are folded"},
	{"memmoves", "legalize", "legalize runs after what could re-create what it removes"},
	{"addrs", "loads2", "loads through folded addresses share base and offset"},
	{"loads2", "unsign", "reused loads keep their extension; the reuse happens first"},
	{"values2", "unsign", "the branches propagation decides are gone"},
	{"values2", "bittest", "the branches propagation decides are gone"},
	{"bittest", "dce2", "dead-code elimination drops the shifts no branch reads any more"},
	{"addrs", "symaddrs", "addresses are folded into their final symbol and offset"},
	{"cse", "addrs2", "a global's other offsets become sums of its available address"},
	{"addrs2", "dce2", "dead-code elimination drops the sums folded into loads and stores"},
	{"unsign", "exts", "loads that became unsigned bound their registers"},
	{"exts", "cse", "an index converted to 64 bits once and copied once is one value (a[i] tested, then read again in a ternary)"},
	{"exts2", "dce2", "dead-code elimination drops what the copies make dead"},
	{"dce2", "merge", "dead stores are gone before runs of stores are merged"},
	{"merge", "legalize", "legalize sees the merged stores' immediates"},
	{"dce2", "copies", "copies sees each loaded value's last uses"},
	{"copies", "dce3", "dce3 drops the narrow loads a widened copy leaves"},
	{"legalize", "unreachable2", "the back end gets blocks numbered in order, all reachable"},
}

func inlinePass(m *ir.Module, c *passCtx) error {
	if err := Inline(m, c.optLevel); err != nil {
		return fmt.Errorf("codegen: %w", err)
	}
	return nil
}

// PassNames lists the passes in the order they run (a loop entry's body
// passes after it), for -d=ir:after=PASS.
func PassNames() []string {
	var names []string
	var walk func([]pass)
	walk = func(ps []pass) {
		for _, p := range ps {
			names = append(names, p.name)
			walk(p.body)
		}
	}
	walk(passes)
	return names
}

// Run returns an optimised copy of m; m itself is not modified. Naked
// functions are copied unchanged.
func Run(m *ir.Module, cfg Config) (*ir.Module, error) {
	mod := cloneModule(m)
	for _, f := range mod.Funcs {
		if err := ir.Check(f); err != nil {
			return nil, fmt.Errorf("codegen: invalid input: %w", err)
		}
	}
	c := &passCtx{cpu: cfg.CPU, optLevel: cfg.OptLevel, consts: foldableGlobals(m.Globals), externs: map[string]bool{}}
	for _, g := range neverWritten(mod) {
		if c.consts == nil {
			c.consts = map[string]*ir.Global{}
		}
		c.consts[g.Name] = g
	}
	for _, g := range m.Globals {
		if g != nil && g.Extern {
			c.externs[g.Name] = true
		}
	}
	r := runner{cfg: cfg, c: c, m: mod}
	fns := passes
	for len(fns) > 0 && fns[0].mod != nil {
		p := fns[0]
		fns = fns[1:]
		if !r.enabled(p) {
			continue
		}
		start := time.Now()
		if err := p.mod(mod, c); err != nil {
			return nil, err
		}
		r.after(p.name, nil, start)
	}
	if cfg.CheckModule != nil {
		if err := cfg.CheckModule(mod); err != nil {
			return nil, err
		}
	}
	for _, f := range mod.Funcs {
		if f.Naked {
			continue
		}
		if err := r.funcPasses(f, fns); err != nil {
			return nil, fmt.Errorf("function %q: %w", f.Name, err)
		}
		if !checkPasses {
			if err := ir.Check(f); err != nil {
				return nil, fmt.Errorf("function %q: internal error after the IR passes (BPFCC_CHECK=1 names the pass): %w", f.Name, err)
			}
		}
	}
	if cfg.OptLevel > 0 {
		// The passes may have removed a function's last reference (the
		// pointer a call went through, once the call is inlined; a call
		// in a branch never taken): clang leaves no dead static code.
		dropUnused(mod)
	}
	return mod, nil
}

// checkPasses makes Run check the IR after every pass: in tests and with
// BPFCC_CHECK=1 (not with BPFCC_CHECK=0: benchmarks). A user's compile
// checks each function once, after the last pass.
var checkPasses = os.Getenv("BPFCC_CHECK") != "0" && (testing.Testing() || os.Getenv("BPFCC_CHECK") != "")

type runner struct {
	cfg Config
	c   *passCtx
	m   *ir.Module
}

func (r *runner) enabled(p pass) bool { return p.required || r.cfg.OptLevel > 0 }

// funcPasses runs ps over f, checking the IR after each (see checkPasses).
func (r *runner) funcPasses(f *ir.Func, ps []pass) error {
	for _, p := range ps {
		if !r.enabled(p) {
			continue
		}
		if p.fn != nil {
			if err := r.funcPass(f, p); err != nil {
				return err
			}
			continue
		}
		for n := 0; ; n++ {
			start := time.Now()
			more := p.loop(f, r.c, n)
			if err := r.afterFunc(p.name, f, start); err != nil {
				return err
			}
			if !more {
				break
			}
			if err := r.funcPasses(f, p.body); err != nil {
				return err
			}
		}
	}
	return nil
}

func (r *runner) funcPass(f *ir.Func, p pass) error {
	start := time.Now()
	p.fn(f, r.c)
	return r.afterFunc(p.name, f, start)
}

func (r *runner) afterFunc(name string, f *ir.Func, start time.Time) error {
	r.after(name, f, start)
	if checkPasses {
		if err := ir.Check(f); err != nil {
			return fmt.Errorf("internal error after pass %s: %w", name, err)
		}
	}
	return nil
}

func (r *runner) after(name string, f *ir.Func, start time.Time) {
	if r.cfg.AfterPass != nil {
		r.cfg.AfterPass(name, r.m, f, time.Since(start))
	}
}
