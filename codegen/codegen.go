// Package codegen turns an ir.Module into an obj.Object: IR optimisation
// passes, instruction selection into cilium/ebpf asm instructions, register
// allocation, stack layout and block layout.
package codegen

import (
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"testing"

	"github.com/bpfcc/bpfcc/codegen/obj"
	"github.com/bpfcc/bpfcc/diag"
	"github.com/bpfcc/bpfcc/ir"
)

// Options configure code generation.
type Options struct {
	// CPU is the eBPF instruction set version 1..4; 0 selects 3.
	CPU int
	// OptLevel 0 turns the optimisation passes off; 1 and above turn them on.
	OptLevel int
	// Debug asks the ELF writer for .BTF.ext func and line info.
	Debug bool
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

// Generate compiles m. It does not modify m.
func Generate(m *ir.Module, opts Options) (o *obj.Object, err error) {
	defer func() {
		if r := recover(); r != nil {
			o, err = nil, fmt.Errorf("codegen: internal error: %v\n%s", r, debug.Stack())
		}
	}()
	if m == nil {
		return nil, fmt.Errorf("codegen: nil module")
	}
	cpu := opts.CPU
	if cpu == 0 {
		cpu = DefaultCPU
	}
	if cpu < 1 || cpu > 4 {
		return nil, fmt.Errorf("codegen: unsupported -mcpu=v%d (want 1..4)", opts.CPU)
	}
	if err := checkInput(m); err != nil {
		return nil, err
	}
	mod := cloneModule(m)
	for _, f := range mod.Funcs {
		if err := ir.Check(f); err != nil {
			return nil, fmt.Errorf("codegen: invalid input: %w", err)
		}
	}
	if err := Inline(mod, opts.OptLevel); err != nil {
		return nil, fmt.Errorf("codegen: %w", err)
	}
	if err := checkArgRegs(mod); err != nil {
		return nil, err
	}
	out := &obj.Object{License: m.License, Version: m.Version, HasVersion: m.HasVersion, Debug: opts.Debug, Output: m.Output}
	for _, mp := range m.Maps {
		if mp == nil {
			continue
		}
		om := &obj.Map{Name: mp.Name, Static: mp.Static, BTF: mp.BTF, Tags: mp.Tags, Extern: mp.Extern, Weak: mp.Weak}
		for _, in := range mp.Inner {
			om.Inner = append(om.Inner, obj.MapInit{Off: in.Off, Sym: in.Sym})
		}
		out.Maps = append(out.Maps, om)
	}
	if out.Data, err = dataSections(m.Globals); err != nil {
		return nil, fmt.Errorf("codegen: %w", err)
	}
	for _, k := range m.Kfuncs {
		out.Kfuncs = append(out.Kfuncs, &obj.Kfunc{Name: k.Name, BTF: k.BTF, Weak: k.Weak, Plain: k.Plain})
	}
	for _, g := range m.Globals {
		if g != nil && g.Extern {
			out.Externs = append(out.Externs, &obj.Extern{Name: g.Name, Section: g.Section, Size: g.Size, Weak: g.Weak, BTF: g.BTF})
		}
	}
	src := newSourceCache()
	consts := foldableGlobals(m.Globals)
	externs := map[string]bool{}
	for _, g := range m.Globals {
		if g != nil && g.Extern {
			externs[g.Name] = true
		}
	}
	for _, f := range mod.Funcs {
		fn, err := compileFunc(f, &passCtx{cpu: cpu, consts: consts, externs: externs}, opts.OptLevel, src)
		if err != nil {
			return nil, err
		}
		out.Funcs = append(out.Funcs, fn)
	}
	if out.Warnings, err = verify(out); err != nil {
		return nil, err
	}
	return out, nil
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

func compileFunc(f *ir.Func, c *passCtx, optLevel int, src *sourceCache) (*obj.Func, error) {
	if f.Naked {
		return nakedFunc(f, src), nil
	}
	cpu := c.cpu
	if err := optimize(f, c, optLevel); err != nil {
		return nil, fmt.Errorf("function %q: %w", f.Name, err)
	}
	if err := reachableTrap(f); err != nil {
		return nil, err
	}
	mf := &mfunc{name: f.Name, pos: f.Pos, next: vreg(max(f.NextReg, 1)), noSpill: map[int]bool{}}
	mf.slotOff, mf.slotBytes = layoutSlots(f)
	// Checked before instruction selection, which need not handle such
	// offsets; verify checks the final frame, spills included.
	if mf.slotBytes > MaxStack {
		return nil, diag.List{frameError(f.Name, f.Pos, mf.slotBytes)}
	}
	if err := selectFunc(f, mf, cpu); err != nil {
		return nil, inFunc(f, err)
	}
	color, err := allocate(mf)
	if err != nil {
		return nil, inFunc(f, err)
	}
	fn, err := emitFunc(mf, color, cpu, src)
	if err != nil {
		return nil, inFunc(f, err)
	}
	fn.Section = f.Section
	if fn.Section == "" {
		fn.Section = ".text"
	}
	fn.Static = f.Static
	fn.Hidden = f.Hidden
	fn.BTF = f.BTF
	fn.StackSize = mf.slotBytes + 8*mf.spills
	fn.Pos = f.Pos
	return fn, nil
}

// inFunc returns an error in the input (a diag.List, positioned already)
// as it is, and names the function in an internal error.
func inFunc(f *ir.Func, err error) error {
	var dl diag.List
	if errors.As(err, &dl) {
		return dl
	}
	return fmt.Errorf("function %q: %w", f.Name, err)
}

// nakedFunc is a __attribute__((naked)) function: the code of its asm
// statements and nothing else, as clang emits it.
func nakedFunc(f *ir.Func, src *sourceCache) *obj.Func {
	var out []outInsn
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			if in.Op != ir.OpAsm {
				continue
			}
			for _, ins := range in.Asm.Insns {
				out = append(out, outInsn{ins: ins, pos: in.Pos})
			}
		}
	}
	fn := lineInfo(&mfunc{name: f.Name}, out, src)
	fn.Section = f.Section
	if fn.Section == "" {
		fn.Section = ".text"
	}
	fn.Static = f.Static
	fn.BTF = f.BTF
	fn.Pos = f.Pos
	return fn
}
