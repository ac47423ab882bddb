package codegen

import (
	"fmt"

	"github.com/cilium/ebpf/asm"

	"github.com/bpfcc/bpfcc/codegen/obj"
	"github.com/bpfcc/bpfcc/diag"
	"github.com/bpfcc/bpfcc/ir"
)

// DefaultCPU is the -mcpu version used when none is given.
const DefaultCPU = 3

// Limits codegen enforces, each with the reason it exists. Generate checks
// its input against MaxValues and its output against the others (see
// verify), and reports a breach as a positioned diagnostic.
const (
	// MaxStack is the kernel's MAX_BPF_STACK: the bytes of one frame, and
	// of the frames of a whole bpf-to-bpf call chain together.
	MaxStack = 512
	// MaxValues bounds a function's virtual registers: the register
	// allocator's interference matrix is quadratic in them.
	MaxValues = 60_000
	// MaxInsns is the kernel's limit on a program's instructions
	// (BPF_COMPLEXITY_LIMIT_INSNS).
	MaxInsns = 1_000_000
	// MaxUnprivInsns is the limit for unprivileged loaders (BPF_MAXINSNS).
	MaxUnprivInsns = 4096
	// MaxMapsPerProg is the kernel's MAX_USED_MAPS.
	MaxMapsPerProg = 64
)

// errorAt is an error in the input at p. Generate returns input errors as a
// diag.List, and anything else as an internal error.
func errorAt(p ir.Pos, format string, args ...any) diag.List {
	return diag.List{at(p, diag.Error, format, args...)}
}

func at(p ir.Pos, sev diag.Severity, format string, args ...any) diag.Diagnostic {
	return diag.Diagnostic{File: p.File, Line: p.Line, Col: p.Col, Severity: sev, Msg: fmt.Sprintf(format, args...)}
}

// checkInput rejects functions too large for the register allocator
// before any work is spent on them.
func checkInput(m *ir.Module) error {
	var dl diag.List
	for _, f := range m.Funcs {
		if int(f.NextReg) > MaxValues {
			dl = append(dl, at(f.Pos, diag.Error, "function %q is too large for bpfcc: %d values (the limit is %d); split it into smaller functions", f.Name, f.NextReg, MaxValues))
		}
	}
	if len(dl) > 0 {
		return dl
	}
	return nil
}

// checkArgRegs reports, after inlining, the first call or function that
// still needs more than the 5 argument registers a BPF call has.
func checkArgRegs(m *ir.Module) error {
	for _, f := range m.Funcs {
		if f.Variadic {
			return errorAt(f.Pos, "variadic function %q is not inlined everywhere; BPF functions take a fixed number of arguments (make it static __always_inline)", f.Name)
		}
		if len(f.Params) > ir.MaxArgs {
			return errorAt(f.Pos, "function %q has %d parameters and is not inlined everywhere; BPF passes at most 5 arguments in registers (make it static __always_inline)", f.Name, len(f.Params))
		}
	}
	for _, f := range m.Funcs {
		for _, b := range f.Blocks {
			for _, in := range b.Instrs {
				if in.Op == ir.OpCallFunc && len(in.Args) > ir.MaxArgs {
					return errorAt(in.Pos, "call to function %s passes %d arguments and is not inlined; BPF passes at most 5 arguments in registers", in.Sym, len(in.Args))
				}
			}
		}
	}
	return nil
}

// frameError is a frame of size bytes over the limit.
func frameError(name string, pos ir.Pos, size int) diag.Diagnostic {
	return at(pos, diag.Error, "function %q: stack frame of %d bytes exceeds BPF's %d-byte limit", name, size, MaxStack)
}

// verify checks the object against the kernel's limits, as the kernel
// counts them: a frame on its own, and per program (with the subprograms
// and callbacks the loader links into it) the stack of every call chain,
// the instructions and the maps. Errors come back as a diag.List; the
// warnings are for what only privileged loaders accept, and for call
// chains over the stack limit (the verifier's verdict, not clang's).
func verify(o *obj.Object) (warnings diag.List, err error) {
	var dl diag.List
	for _, f := range o.Funcs {
		if f.StackSize > MaxStack {
			dl = append(dl, frameError(f.Name, f.Pos, f.StackSize))
		}
	}
	if len(dl) > 0 {
		// The call chains would only repeat it.
		return nil, dl
	}
	g := newCallGraph(o)
	reported := map[string]bool{}
	for _, p := range o.Funcs {
		if p.Section == ".text" {
			continue
		}
		funcs := g.program(p)
		warnings = append(warnings, g.checkStack(p, funcs, reported)...)
		n := 0
		for _, f := range funcs {
			n += rawLen(f.Insns)
		}
		switch {
		case n > MaxInsns:
			dl = append(dl, at(p.Pos, diag.Error, "program %q has %d instructions%s; the kernel accepts at most %d", p.Name, n, withSubprogs(funcs), MaxInsns))
		case n > MaxUnprivInsns:
			warnings = append(warnings, at(p.Pos, diag.Warning, "program %q has %d instructions%s: only privileged loaders accept more than %d", p.Name, n, withSubprogs(funcs), MaxUnprivInsns))
		}
		if maps := g.maps(funcs); len(maps) > MaxMapsPerProg {
			dl = append(dl, at(p.Pos, diag.Error, "program %q uses %d maps%s; the kernel allows %d per program", p.Name, len(maps), mapsCounted(funcs, maps), MaxMapsPerProg))
		}
	}
	if len(dl) > 0 {
		return warnings, dl
	}
	return warnings, nil
}

// withSubprogs says that a count includes the subprograms, when there are any.
func withSubprogs(funcs []*obj.Func) string {
	if len(funcs) == 1 {
		return ""
	}
	return fmt.Sprintf(" with the %d functions it calls", len(funcs)-1)
}

// mapsCounted says what a map count includes besides the program's own maps.
func mapsCounted(funcs []*obj.Func, maps map[string]bool) string {
	var parts []string
	if len(funcs) > 1 {
		parts = append(parts, fmt.Sprintf("those of the %d functions it calls", len(funcs)-1))
	}
	for m := range maps {
		if m[0] == '.' {
			parts = append(parts, "global data sections")
			break
		}
	}
	switch len(parts) {
	case 0:
		return ""
	case 1:
		return " (counting " + parts[0] + ")"
	}
	return " (counting " + parts[0] + " and " + parts[1] + ")"
}

// rawLen is the number of 8-byte instruction slots: an ld_imm64 takes two.
func rawLen(insns asm.Instructions) int {
	n := 0
	for _, ins := range insns {
		n += int(ins.Size() / asm.InstructionSize)
	}
	return n
}

// checkIndirect reports, after optimisation, a call through a function
// pointer that did not become direct: propagation may still find the
// function (a pointer stored in a local struct) or remove the call (a
// NULL one tested first), so it is not an error before.
func checkIndirect(m *ir.Module) error {
	for _, f := range m.Funcs {
		for _, b := range f.Blocks {
			for _, in := range b.Instrs {
				if in.Op == ir.OpCallFunc && in.Sym == ir.IndirectSym {
					return errorAt(in.Pos, "indirect calls through function pointers are not supported in BPF (the pointer must hold one known function after inlining)")
				}
			}
		}
	}
	return nil
}
