// Package opt is bpfcc's IR optimiser: the passes that rewrite an
// ir.Module before instruction selection, run from one table.
package opt

import (
	"fmt"
	"os"
	"testing"

	"github.com/bpfcc/bpfcc/ir"
)

// Config configures Run.
type Config struct {
	// CPU is the eBPF instruction set version, 1..4.
	CPU int
	// OptLevel 0 runs only the required passes.
	OptLevel int
}

// funcPass is one IR pass over a function. Required passes run at every
// optimisation level because later stages rely on what they establish.
type funcPass struct {
	name     string
	fn       func(f *ir.Func, c *passCtx)
	required bool
}

// passCtx is what passes may consult.
type passCtx struct {
	cpu int
	// consts are the globals whose contents loads may be folded from
	// (see foldableGlobal), by name; nil when none are.
	consts map[string]*ir.Global
	// externs are the variables the loader places (.kconfig, .ksyms,
	// the static linker's): their ld_imm64 must keep offset 0, since
	// libbpf overwrites the immediate with the variable's own offset.
	externs map[string]bool
}

// funcPasses run in this order. Ordering constraints: ensureEntry before
// anything that walks from the entry; legalize after the optimisations that
// could re-create what it removes (folding never creates SDiv or W32
// branches, so it may run first); simplifyCFG last so that it sees the
// branches folding decided. unroll runs after copyprop (its trip-count
// simulation looks through copies) and calls propagateValues itself after
// each loop; values runs twice, the second time on the CFG that the first
// round's decided branches simplified.
var funcPasses = []funcPass{
	{"entry", ensureEntry, true},
	{"unreachable", removeUnreachable, true},
	{"fold", foldConstants, false},
	{"copyprop", propagateCopies, false},
	{"unroll", unrollLoops, false},
	{"frame", foldFrameAddrs, false},
	{"fold2", foldConstants, false},
	{"values", propagateValues, false},
	{"constp", resolveConstP, false},
	{"loads", forwardLoads, false},
	{"dce", eliminateDeadCode, false},
	{"cfg", simplifyCFG, false},
	{"constp2", finishConstP, true},
	{"values2", propagateValues, false},
	{"addrs", foldAddresses, false},
	{"dce2", eliminateDeadCode, false},
	{"cfg2", simplifyCFG, false},
	{"legalize", legalize, true},
	{"unreachable2", removeUnreachable, true},
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
	if err := Inline(mod, cfg.OptLevel); err != nil {
		return nil, fmt.Errorf("codegen: %w", err)
	}
	if err := checkArgRegs(mod); err != nil {
		return nil, err
	}
	c := &passCtx{cpu: cfg.CPU, consts: foldableGlobals(m.Globals), externs: map[string]bool{}}
	for _, g := range m.Globals {
		if g != nil && g.Extern {
			c.externs[g.Name] = true
		}
	}
	for _, f := range mod.Funcs {
		if f.Naked {
			continue
		}
		if err := optimize(f, c, cfg.OptLevel); err != nil {
			return nil, fmt.Errorf("function %q: %w", f.Name, err)
		}
	}
	return mod, nil
}

// dumpAfter names the pass after which optimize prints each function to
// standard error ("all" for every pass), from $BPFCC_DUMP; for debugging.
var dumpAfter = os.Getenv("BPFCC_DUMP")

// checkPasses makes optimize check the IR after every pass: in tests and
// with BPFCC_CHECK=1. A user's compile checks it once, after the last.
var checkPasses = testing.Testing() || os.Getenv("BPFCC_CHECK") != ""

// optimize runs the function passes, checking the IR after each (see
// checkPasses).
func optimize(f *ir.Func, c *passCtx, optLevel int) error {
	for _, p := range funcPasses {
		if !p.required && optLevel <= 0 {
			continue
		}
		p.fn(f, c)
		if dumpAfter != "" && (dumpAfter == p.name || dumpAfter == "all") {
			fmt.Fprintf(os.Stderr, "after %s:\n%s\n", p.name, f)
		}
		if checkPasses {
			if err := ir.Check(f); err != nil {
				return fmt.Errorf("internal error after pass %s: %w", p.name, err)
			}
		}
	}
	if !checkPasses {
		if err := ir.Check(f); err != nil {
			return fmt.Errorf("internal error after the IR passes (BPFCC_CHECK=1 names the pass): %w", err)
		}
	}
	return nil
}
