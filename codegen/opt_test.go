package codegen

import (
	"fmt"
	"testing"

	"github.com/bpfcc/bpfcc/codegen/internal/opt"
	"github.com/bpfcc/bpfcc/ir"
)

func funcNames(m []*ir.Func) []string {
	var n []string
	for _, f := range m {
		n = append(n, f.Name)
	}
	return n
}

func smallCallee(name string, static bool) *ir.Func {
	c := newFunc(name, "", 1)
	c.f.Static = static
	c.ret(ir.R(c.alu(ir.Add, false, ir.R(c.param(0)), ir.Imm(1))))
	return c.f
}

func TestInlinePolicy(t *testing.T) {
	build := func() *ir.Module {
		x := newFunc("prog", "socket", 1)
		v := x.mov(ir.Imm(1))
		for _, callee := range []string{"st", "glob", "forced", "never"} {
			d := x.f.NewReg()
			x.add(&ir.Instr{Op: ir.OpCallFunc, Sym: callee, Dst: d, Args: []ir.Operand{ir.R(v)}})
			v = d
		}
		x.ret(ir.R(v))
		forced := smallCallee("forced", false)
		forced.Inline = true
		never := smallCallee("never", true)
		never.NoInline = true
		unused := smallCallee("unused", true)
		return module(x.f, smallCallee("st", true), smallCallee("glob", false), forced, never, unused)
	}
	for _, tc := range []struct {
		opt  int
		want string
	}{
		{0, "[prog st glob forced never]"},
		{2, "[prog glob forced never]"},
	} {
		m := build()
		if err := opt.Inline(m, tc.opt); err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprint(funcNames(m.Funcs)); got != tc.want {
			t.Errorf("O%d: functions %s, want %s", tc.opt, got, tc.want)
		}
		for _, f := range m.Funcs {
			if err := ir.Check(f); err != nil {
				t.Error(err)
			}
		}
		if got := runModule(t, build(), "prog", Options{OptLevel: tc.opt}, nil); got != 5 {
			t.Errorf("O%d: got %d, want 5", tc.opt, got)
		}
	}
}

// TestFoldedBranch checks that constant branches and dead code vanish.
func TestFoldedBranch(t *testing.T) {
	x := newFunc("prog", "socket", 1)
	c := x.mov(ir.Imm(3))
	yes, no := x.f.NewBlock(), x.f.NewBlock()
	x.alu(ir.Mul, false, ir.R(c), ir.R(c)) // dead
	x.branch(ir.Sgt, false, ir.R(c), ir.Imm(2), yes, no)
	yes.Instrs = []*ir.Instr{{Op: ir.OpRet, A: ir.Imm(7)}}
	no.Instrs = []*ir.Instr{{Op: ir.OpRet, A: ir.Imm(9)}}
	o := generate(t, module(x.f), Options{OptLevel: 2})
	if n := len(o.Funcs[0].Insns); n != 2 {
		t.Errorf("%d instructions, want 2:\n%s", n, Listing(o))
	}
	if got := runModule(t, module(x.f), "prog", Options{}, nil); got != 7 {
		t.Errorf("O0 got %d", got)
	}
}

// TestEntryIsLoopHeader makes block 0 the target of a back edge and reads
// a register before writing it (the verifier must still accept it).
func TestEntryIsLoopHeader(t *testing.T) {
	f := &ir.Func{Name: "prog", Section: "socket", Returns: true}
	ctx := f.NewReg()
	f.Params = []ir.Reg{ctx}
	i, u := f.NewReg(), f.NewReg()
	b0, b1, b2 := f.NewBlock(), f.NewBlock(), f.NewBlock()
	b0.Instrs = []*ir.Instr{
		{Op: ir.OpALU, ALU: ir.Add, Dst: i, A: ir.R(i), B: ir.Imm(1)},
		{Op: ir.OpBranch, Cond: ir.Ult, A: ir.R(i), B: ir.Imm(10), Then: b0, Else: b1},
	}
	b1.Instrs = []*ir.Instr{{Op: ir.OpALU, ALU: ir.Add, Dst: i, A: ir.R(i), B: ir.R(u)}, {Op: ir.OpJump, Then: b2}}
	b2.Instrs = []*ir.Instr{{Op: ir.OpRet, A: ir.R(i)}}
	for _, o := range allOpts {
		if got := runModule(t, module(f), "prog", o, nil); got != 10 {
			t.Errorf("%v: got %d, want 10", o, got)
		}
	}
}

func TestGenerateErrors(t *testing.T) {
	x := newFunc("prog", "socket", 1)
	x.ret(ir.Imm(0))
	if _, err := Generate(module(x.f), Options{CPU: 9}); err == nil {
		t.Error("CPU 9 accepted")
	}
	bad := newFunc("bad", "socket", 1)
	bad.mov(ir.Imm(1)) // no terminator
	if _, err := Generate(module(bad.f), Options{}); err == nil {
		t.Error("invalid IR accepted")
	}
	if _, err := Generate(nil, Options{}); err == nil {
		t.Error("nil module accepted")
	}
}
