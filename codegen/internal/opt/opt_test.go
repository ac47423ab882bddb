package opt

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/bpfcc/bpfcc/ir"
)

// TestInlineRecursionTerminates inlines mutually "recursive" Inline
// functions without looping forever.
func TestInlineRecursionTerminates(t *testing.T) {
	a := newFunc("a", "", 1)
	a.f.Inline, a.f.Static = true, true
	d := a.f.NewReg()
	a.add(&ir.Instr{Op: ir.OpCallFunc, Sym: "b", Dst: d, Args: []ir.Operand{ir.R(a.param(0))}})
	a.ret(ir.R(d))
	b := newFunc("b", "", 1)
	b.f.Inline, b.f.Static = true, true
	d = b.f.NewReg()
	b.add(&ir.Instr{Op: ir.OpCallFunc, Sym: "a", Dst: d, Args: []ir.Operand{ir.R(b.param(0))}})
	b.ret(ir.R(d))
	m := module(a.f, b.f)
	if err := Inline(m, 2); err != nil {
		t.Fatal(err)
	}
}

// TestZeroExtended: a parameter or a sign-extended value is not known to
// be zero-extended, a 32-bit result and copies of it are.
func TestZeroExtended(t *testing.T) {
	x := newFunc("prog", "socket", 1)
	a := x.alu(ir.Add, true, ir.R(x.param(0)), ir.Imm(1))
	b := x.mov(ir.R(a))
	c := x.f.NewReg()
	x.add(&ir.Instr{Op: ir.OpExt, Dst: c, A: ir.R(a), Bits: 8, Signed: true})
	x.ret(ir.R(c))
	z := zeroExtended(x.f)
	if z[x.param(0)] || !z[a] || !z[b] || z[c] {
		t.Errorf("zeroExtended = %v (param %v, add32 %v, copy %v, sext %v)", z, x.param(0), a, b, c)
	}
}

// TestStringLiteralFoldable: a string literal's contents may be folded.
func TestStringLiteralFoldable(t *testing.T) {
	if !foldableGlobal(&ir.Global{Name: ".str.0", Section: ".rodata", Static: true, Size: 2, Init: []byte{'a', 0}}) {
		t.Error("string literal not foldable")
	}
}

// TestPassesKeepIRValid runs every function pass alone on the test
// programs and the golden inputs, at every CPU.
func TestPassesKeepIRValid(t *testing.T) {
	var funcs []*ir.Func
	s := newFunc("straight", "socket", 1)
	s.ret(ir.R(s.alu(ir.Add, false, ir.R(s.mov(ir.Imm(40))), ir.R(s.call(5)))))
	funcs = append(funcs, s.f)
	x := newFunc("loop", "socket", 1)
	i := x.mov(ir.Imm(0))
	head, done := x.f.NewBlock(), x.f.NewBlock()
	x.jump(head)
	x.b = head
	x.add(&ir.Instr{Op: ir.OpALU, ALU: ir.SDiv, Dst: i, A: ir.R(i), B: ir.Imm(-3)})
	x.branch(ir.Slt, true, ir.R(i), ir.Imm(5), head, done)
	x.b = done
	x.ret(ir.R(i))
	funcs = append(funcs, x.f)
	inputs, _ := filepath.Glob(filepath.Join("testdata", "*", "*.ir"))
	for _, in := range inputs {
		text, err := os.ReadFile(in)
		if err != nil {
			t.Fatal(err)
		}
		m, err := ir.Parse(string(text))
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		funcs = append(funcs, m.Funcs...)
	}
	for _, p := range passes {
		if p.fn == nil {
			continue
		}
		for _, f := range funcs {
			for cpu := 1; cpu <= 4; cpu++ {
				c := cloneFunc(f)
				p.fn(c, &passCtx{cpu: cpu, optLevel: 2})
				if err := ir.Check(c); err != nil {
					t.Errorf("pass %s on %s (v%d): %v", p.name, f.Name, cpu, err)
				}
			}
		}
	}
}
