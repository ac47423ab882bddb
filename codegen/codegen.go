// Package codegen turns an ir.Module into an obj.Object: IR optimisation
// (package opt), instruction selection into cilium/ebpf asm instructions, register
// allocation, stack layout and block layout.
package codegen

import (
	"errors"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/bpfcc/bpfcc/codegen/internal/opt"
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
	// AfterPass, when set, sees the IR after every optimiser pass that
	// ran (see PassNames) and the time it took: f is the function a
	// function pass rewrote, nil after a module pass (m is the module).
	AfterPass func(pass string, m *ir.Module, f *ir.Func, took time.Duration)
	// AfterStage, when set, sees each function after every back-end
	// stage (see StageNames) as text: the frame layout, the MIR, the
	// listing.
	AfterStage func(stage, fn, text string, took time.Duration)
}

// PassNames lists the optimiser's passes in the order they run.
func PassNames() []string { return opt.PassNames() }

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
	mod, err := opt.Run(m, opt.Config{CPU: cpu, OptLevel: opts.OptLevel, AfterPass: opts.AfterPass, CheckModule: checkArgRegs})
	if err != nil {
		return nil, err
	}
	if err := checkIndirect(mod); err != nil {
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
	// mod's globals: the optimiser drops the string literals no code reads.
	if out.Data, err = dataSections(mod.Globals); err != nil {
		return nil, fmt.Errorf("codegen: %w", err)
	}
	for _, k := range m.Kfuncs {
		out.Kfuncs = append(out.Kfuncs, &obj.Kfunc{Name: k.Name, BTF: k.BTF, Weak: k.Weak, Plain: k.Plain, Hidden: k.Hidden})
	}
	for _, g := range m.Globals {
		if g != nil && g.Extern {
			out.Externs = append(out.Externs, &obj.Extern{Name: g.Name, Section: g.Section, Size: g.Size, Weak: g.Weak, BTF: g.BTF})
		}
	}
	src := newSourceCache()
	for _, f := range mod.Funcs {
		fn, err := compileFunc(f, cpu, src, opts.AfterStage)
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
	fn.Weak = f.Weak
	fn.BTF = f.BTF
	fn.Pos = f.Pos
	return fn
}
