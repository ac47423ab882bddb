package codegen

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/cilium/ebpf/asm"

	"github.com/bpfcc/bpfcc/codegen/obj"
	"github.com/bpfcc/bpfcc/diag"
	"github.com/bpfcc/bpfcc/ir"
)

// These tests check codegen's verification of its input and output
// without a kernel: objects are built by hand, or generated from IR.

func srcLine(line int) ir.Pos { return ir.Pos{File: "test.c", Line: line, Col: 1} }

// fn is a function of a hand-built object; the code ends in exit.
func fn(name, section string, stack, line int, insns ...asm.Instruction) *obj.Func {
	insns = append(insns, asm.Return())
	return &obj.Func{Name: name, Section: section, StackSize: stack, Pos: srcLine(line), Insns: insns}
}

func call(name string) asm.Instruction { return asm.Call.Label(name) }

// funcAddr is the ld_imm64 of a callback's address.
func funcAddr(name string) asm.Instruction {
	ins := asm.LoadImm(asm.R2, 0, asm.DWord)
	ins.Src = asm.PseudoFunc
	return ins.WithReference(name)
}

// wantDiag requires one diagnostic of sev at test.c:line containing every text.
func wantDiag(t *testing.T, dl diag.List, sev diag.Severity, line int, texts ...string) {
	t.Helper()
	for _, d := range dl {
		if d.Severity != sev || d.File != "test.c" || d.Line != line {
			continue
		}
		ok := true
		for _, s := range texts {
			ok = ok && strings.Contains(d.Msg, s)
		}
		if ok {
			return
		}
	}
	t.Errorf("no %v at test.c:%d containing %q; got:\n%v", sev, line, texts, dl)
}

// verifyErrors runs verify and returns its errors, failing t if the
// error is not a diag.List.
func verifyErrors(t *testing.T, o *obj.Object) (warnings, errs diag.List) {
	t.Helper()
	w, err := verify(o)
	if err != nil && !errors.As(err, &errs) {
		t.Fatalf("verify: %T %v, want a diag.List", err, err)
	}
	return w, errs
}

func TestVerifyFrame(t *testing.T) {
	o := &obj.Object{Funcs: []*obj.Func{fn("p", "socket", 520, 3), fn("q", "socket", 512, 7)}}
	_, errs := verifyErrors(t, o)
	wantDiag(t, errs, diag.Error, 3, `function "p": stack frame of 520 bytes exceeds BPF's 512-byte limit`)
	if len(errs) != 1 {
		t.Errorf("want one error (512 bytes fit), got:\n%v", errs)
	}
}

func TestVerifyCallChainStack(t *testing.T) {
	leaf := fn("leaf", ".text", 300, 2)
	mid := fn("mid", ".text", 300, 3, call("leaf"))
	p := fn("p", "socket", 8, 4, call("mid"))
	w, errs := verifyErrors(t, &obj.Object{Funcs: []*obj.Func{leaf, mid, p}})
	// Each frame rounds up to 32 bytes: 32 + 320 + 320. A warning: clang
	// compiles it, and the total is the verifier's verdict.
	if errs != nil {
		t.Errorf("a call chain over the limit is an error: %v", errs)
	}
	wantDiag(t, w, diag.Warning, 4, `program "p" needs 672 bytes of stack through the call chain [p mid leaf]`)

	// One frame of 300 alone is fine.
	mid.Insns = asm.Instructions{asm.Return()}
	if w, _ := verifyErrors(t, &obj.Object{Funcs: []*obj.Func{leaf, mid, p}}); w != nil {
		t.Errorf("single frame warned of: %v", w)
	}
}

func TestVerifyCallbackStack(t *testing.T) {
	cb := fn("cb", ".text", 300, 2)
	// bpf_loop runs the callback on top of the caller's frame.
	loop := fn("p", "tc", 300, 5, funcAddr("cb"), asm.FnLoop.Call())
	w, _ := verifyErrors(t, &obj.Object{Funcs: []*obj.Func{cb, loop}})
	wantDiag(t, w, diag.Warning, 5, "call chain [p cb]")

	// A timer or workqueue callback runs later, alone: the kernel checks
	// it as a root of its own, and its frame is not on the program's.
	for _, arm := range []asm.Instruction{asm.FnTimerSetCallback.Call(), call("bpf_wq_set_callback_impl")} {
		p := fn("p", "tc", 300, 5, funcAddr("cb"), arm)
		if w, _ := verifyErrors(t, &obj.Object{Funcs: []*obj.Func{cb, p}}); w != nil {
			t.Errorf("%v: an async callback counted on the program's stack: %v", arm, w)
		}
		deep := fn("deep", ".text", 300, 1)
		cb2 := fn("cb", ".text", 300, 2, call("deep"))
		w, _ := verifyErrors(t, &obj.Object{Funcs: []*obj.Func{deep, cb2, p}})
		wantDiag(t, w, diag.Warning, 2, `callback "cb", which program "p" runs asynchronously, needs 640 bytes`, "[cb deep]")
	}

	// The kernel marks the function, not the use: calling a timer
	// callback directly counts its frame; loading its address again does not.
	p := fn("p", "tc", 300, 5, funcAddr("cb"), asm.FnTimerSetCallback.Call(), call("cb"))
	w, _ = verifyErrors(t, &obj.Object{Funcs: []*obj.Func{cb, p}})
	wantDiag(t, w, diag.Warning, 5, "call chain [p cb]")
	p = fn("p", "tc", 300, 5, funcAddr("cb"), asm.FnTimerSetCallback.Call(), funcAddr("cb"), asm.FnLoop.Call())
	if w, _ := verifyErrors(t, &obj.Object{Funcs: []*obj.Func{cb, p}}); w != nil {
		t.Errorf("a timer callback's address counted as a frame: %v", w)
	}
}

func TestVerifyInstructions(t *testing.T) {
	body := func(n int) []asm.Instruction {
		insns := make([]asm.Instruction, n)
		for i := range insns {
			insns[i] = asm.Mov.Imm(asm.R0, 0)
		}
		return insns
	}
	// Neither function alone is over 4096; the program the loader links is.
	sub := fn("sub", ".text", 0, 2, body(2500)...)
	p := fn("p", "socket", 0, 9, append(body(2500), call("sub"))...)
	w, errs := verifyErrors(t, &obj.Object{Funcs: []*obj.Func{sub, p}})
	if errs != nil {
		t.Fatal(errs)
	}
	wantDiag(t, w, diag.Warning, 9, `program "p" has 5003 instructions with the 1 functions it calls`, "only privileged loaders accept more than 4096")
	if len(w) != 1 {
		t.Errorf("want one warning (a subprogram is not a program), got:\n%v", w)
	}

	// An ld_imm64 takes two slots.
	big := make([]asm.Instruction, MaxInsns/2)
	for i := range big {
		big[i] = asm.LoadImm(asm.R0, 1, asm.DWord)
	}
	sub = &obj.Func{Name: "sub", Section: ".text", Pos: srcLine(2), Insns: big}
	p = fn("p", "socket", 0, 9, call("sub"))
	_, errs = verifyErrors(t, &obj.Object{Funcs: []*obj.Func{sub, p}})
	wantDiag(t, errs, diag.Error, 9, fmt.Sprintf(`program "p" has %d instructions`, MaxInsns+2), "at most 1000000")
}

func TestVerifyMapsCountDataSections(t *testing.T) {
	o := &obj.Object{
		Data:    []*obj.DataSection{{Name: ".data", Vars: []*obj.Var{{Name: "a"}, {Name: "b"}}}, {Name: ".rodata", Vars: []*obj.Var{{Name: "c"}}}},
		Externs: []*obj.Extern{{Name: "CONFIG_X", Section: ".kconfig"}, {Name: "sym", Section: ".ksyms"}},
	}
	var insns []asm.Instruction
	for i := range MaxMapsPerProg - 2 {
		name := fmt.Sprintf("m%d", i)
		o.Maps = append(o.Maps, &obj.Map{Name: name})
		insns = append(insns, asm.LoadMapPtr(asm.R1, 0).WithReference(name))
	}
	// Two variables of .data are one map; a __ksym is no map.
	for _, v := range []string{"a", "b", "sym"} {
		insns = append(insns, asm.LoadImm(asm.R1, 0, asm.DWord).WithReference(v))
	}
	o.Funcs = []*obj.Func{fn("p", "socket", 0, 4, insns...)}
	if _, errs := verifyErrors(t, o); errs != nil {
		t.Fatalf("%d maps rejected: %v", MaxMapsPerProg-1, errs)
	}
	// .rodata and libbpf's .kconfig make 64, then 65.
	o.Funcs[0] = fn("p", "socket", 0, 4, append(insns, asm.LoadImm(asm.R1, 0, asm.DWord).WithReference("c"))...)
	if _, errs := verifyErrors(t, o); errs != nil {
		t.Fatalf("%d maps rejected: %v", MaxMapsPerProg, errs)
	}
	o.Funcs[0] = fn("p", "socket", 0, 4, append(insns, asm.LoadImm(asm.R1, 0, asm.DWord).WithReference("c"), asm.LoadImm(asm.R1, 0, asm.DWord).WithReference("CONFIG_X"))...)
	_, errs := verifyErrors(t, o)
	wantDiag(t, errs, diag.Error, 4, `program "p" uses 65 maps (counting global data sections)`)
}

// mapUser is a function passing each of maps to a helper.
func mapUser(name, section string, maps []string) *fb {
	x := newFunc(name, section, 0)
	x.f.Pos = srcLine(len(name))
	for _, m := range maps {
		p := x.f.NewReg()
		x.add(&ir.Instr{Op: ir.OpMapPtr, Dst: p, Sym: m})
		x.call(int64(asm.FnMapLookupElem), ir.R(p), ir.Imm(0))
	}
	return x
}

// TestVerifyMapsPerProgram: the kernel counts the maps of a program with
// the subprograms linked into it, after inlining. Counted per function of
// the IR before inlining, as bpfcc once did, neither program below uses
// more than 40.
func TestVerifyMapsPerProgram(t *testing.T) {
	names := func(from, to int) []string {
		var s []string
		for i := from; i < to; i++ {
			s = append(s, fmt.Sprintf("m%d", i))
		}
		return s
	}
	for _, c := range []struct {
		name     string
		inline   bool
		own, sub int // maps the program and its callee use
		want     string
	}{
		{"subprogram", false, 40, 30, `program "prog" uses 70 maps (counting those of the 1 functions it calls)`},
		{"inlined", true, 40, 30, `program "prog" uses 70 maps`},
		{"subprogram at the limit", false, 40, 24, ""},
		{"inlined at the limit", true, 40, 24, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := module()
			for _, n := range names(0, c.own+c.sub) {
				m.Maps = append(m.Maps, &ir.Map{Name: n})
			}
			prog := mapUser("prog", "socket", names(0, c.own))
			prog.add(&ir.Instr{Op: ir.OpCallFunc, Sym: "sub", Dst: prog.f.NewReg()})
			prog.ret(ir.Imm(0))
			sub := mapUser("sub", "", names(c.own, c.own+c.sub))
			sub.ret(ir.Imm(0))
			sub.f.Static, sub.f.Inline, sub.f.NoInline = true, c.inline, !c.inline
			m.Funcs = []*ir.Func{prog.f, sub.f}
			for _, opts := range []Options{{OptLevel: 0}, {OptLevel: 2}} {
				_, err := Generate(m, opts)
				var dl diag.List
				switch {
				case c.want == "" && err != nil:
					t.Errorf("-O%d: %v", opts.OptLevel, err)
				case c.want != "" && !errors.As(err, &dl):
					t.Errorf("-O%d: err = %v, want diagnostics", opts.OptLevel, err)
				case c.want != "":
					wantDiag(t, dl, diag.Error, len("prog"), c.want)
				}
			}
		})
	}
}

// TestGenerateInputErrors: errors in the input come back from Generate as
// positioned diagnostics.
func TestGenerateInputErrors(t *testing.T) {
	generateErrors := func(t *testing.T, fs ...*ir.Func) diag.List {
		t.Helper()
		_, err := Generate(module(fs...), Options{})
		var dl diag.List
		if !errors.As(err, &dl) {
			t.Fatalf("err = %v, want diagnostics", err)
		}
		return dl
	}
	t.Run("values", func(t *testing.T) {
		x := newFunc("huge", "socket", 0)
		x.f.Pos = srcLine(3)
		x.ret(ir.Imm(0))
		x.f.NextReg = MaxValues + 1
		wantDiag(t, generateErrors(t, x.f), diag.Error, 3, `function "huge" is too large for bpfcc: 60001 values`)
	})
	t.Run("parameters", func(t *testing.T) {
		six := newFunc("six", "", 6)
		six.f.Pos, six.f.NoInline = srcLine(2), true
		six.ret(ir.Imm(0))
		wantDiag(t, generateErrors(t, six.f), diag.Error, 2, `function "six" has 6 parameters`)
	})
	t.Run("arguments", func(t *testing.T) {
		five := newFunc("five", "", 5)
		five.f.NoInline = true
		five.ret(ir.Imm(0))
		p := newFunc("p", "socket", 0)
		args := []ir.Operand{ir.Imm(1), ir.Imm(2), ir.Imm(3), ir.Imm(4), ir.Imm(5), ir.Imm(6)}
		p.add(&ir.Instr{Op: ir.OpCallFunc, Sym: "five", Dst: p.f.NewReg(), Args: args, Pos: srcLine(7)})
		p.ret(ir.Imm(0))
		wantDiag(t, generateErrors(t, five.f, p.f), diag.Error, 7, "call to function five passes 6 arguments")
	})
	t.Run("trap", func(t *testing.T) {
		p := newFunc("p", "socket", 0)
		p.f.Pos = srcLine(1)
		p.add(&ir.Instr{Op: ir.OpCallFunc, Sym: ir.TrapSym, Pos: srcLine(4)})
		p.ret(ir.Imm(0))
		wantDiag(t, generateErrors(t, p.f), diag.Error, 4, "__builtin_trap() is reachable")
	})
	t.Run("frame", func(t *testing.T) {
		p := newFunc("p", "socket", 0)
		p.f.Pos = srcLine(5)
		s := p.f.NewSlot("big", 600, 8)
		p.add(&ir.Instr{Op: ir.OpFrameAddr, Dst: p.f.NewReg(), Slot: s})
		p.ret(ir.Imm(0))
		wantDiag(t, generateErrors(t, p.f), diag.Error, 5, `function "p": stack frame of 600 bytes`)
	})
}
