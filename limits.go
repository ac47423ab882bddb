package bpfcc

import (
	"fmt"

	"github.com/bpfcc/bpfcc/codegen/obj"
	"github.com/bpfcc/bpfcc/diag"
	"github.com/bpfcc/bpfcc/ir"
)

// Limits enforced between stages, each with the reason it exists.
const (
	// MaxValues bounds a function's virtual registers: the register
	// allocator's interference matrix is quadratic in them.
	MaxValues = 60_000
	// MaxInsns is the kernel's limit on a program's instructions (BPF_COMPLEXITY_LIMIT_INSNS).
	MaxInsns = 1_000_000
	// MaxUnprivInsns is the limit for unprivileged loaders (BPF_MAXINSNS).
	MaxUnprivInsns = 4096
	// MaxMapsPerProg is the kernel's MAX_USED_MAPS.
	MaxMapsPerProg = 64
)

func at(p ir.Pos, format string, args ...any) diag.Diagnostic {
	return diag.Diagnostic{File: p.File, Line: p.Line, Col: p.Col, Msg: fmt.Sprintf(format, args...)}
}

// checkIRLimits runs before code generation.
func checkIRLimits(m *ir.Module) error {
	var dl diag.List
	for _, f := range m.Funcs {
		if int(f.NextReg) > MaxValues {
			dl = append(dl, at(f.Pos, "function %q is too large for bpfcc: %d values (the limit is %d); split it into smaller functions", f.Name, f.NextReg, MaxValues))
		}
		maps := map[string]bool{}
		for _, b := range f.Blocks {
			for _, in := range b.Instrs {
				if in.Op == ir.OpMapPtr {
					maps[in.Sym] = true
				}
			}
		}
		if len(maps) > MaxMapsPerProg {
			dl = append(dl, at(f.Pos, "function %q uses %d maps; the kernel allows %d per program", f.Name, len(maps), MaxMapsPerProg))
		}
	}
	if len(dl) > 0 {
		return dl
	}
	return nil
}

// checkObjectLimits runs after code generation; it returns warnings
// separately from errors.
func checkObjectLimits(o *obj.Object, m *ir.Module) (warnings diag.List, err error) {
	pos := map[string]ir.Pos{}
	for _, f := range m.Funcs {
		pos[f.Name] = f.Pos
	}
	var dl diag.List
	for _, f := range o.Funcs {
		n := 0
		for _, ins := range f.Insns {
			n += int(ins.Size() / 8)
		}
		switch {
		case n > MaxInsns:
			dl = append(dl, at(pos[f.Name], "function %q has %d instructions; the kernel accepts at most %d", f.Name, n, MaxInsns))
		case n > MaxUnprivInsns && f.Section != ".text":
			d := at(pos[f.Name], "program %q has %d instructions: only privileged loaders accept more than %d", f.Name, n, MaxUnprivInsns)
			d.Severity = diag.Warning
			warnings = append(warnings, d)
		}
	}
	if len(dl) > 0 {
		return warnings, dl
	}
	return warnings, nil
}
