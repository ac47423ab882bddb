package codegen

import (
	"testing"

	"github.com/bpfcc/bpfcc/ir"
)

// stackSum builds a program that fills a 4-element stack array, walks it
// with a pointer up to its end and returns the sum (1+2+3+4 = 10) plus the
// byte distance walked (32): 42. With volatile set, the array must stay.
func stackSum(volatile bool) *ir.Func {
	x := newFunc("prog", "socket", 1)
	s := x.f.NewSlot("q", 32, 8)
	s.Volatile = volatile
	base := x.f.NewReg()
	x.add(&ir.Instr{Op: ir.OpFrameAddr, Dst: base, Slot: s})
	for i := int64(0); i < 4; i++ {
		x.add(&ir.Instr{Op: ir.OpStore, A: ir.R(base), Off: 8 * i, Size: 8, B: ir.Imm(i + 1)})
	}
	p := x.mov(ir.R(base))
	end := x.alu(ir.Add, false, ir.R(base), ir.Imm(32))
	sum := x.mov(ir.Imm(0))
	head, body, done := x.f.NewBlock(), x.f.NewBlock(), x.f.NewBlock()
	x.jump(head)
	x.b = head
	x.branch(ir.Ult, false, ir.R(p), ir.R(end), body, done)
	x.b = body
	v := x.f.NewReg()
	x.add(&ir.Instr{Op: ir.OpLoad, Dst: v, A: ir.R(p), Size: 8})
	x.add(&ir.Instr{Op: ir.OpALU, ALU: ir.Add, Dst: sum, A: ir.R(sum), B: ir.R(v)})
	x.add(&ir.Instr{Op: ir.OpALU, ALU: ir.Add, Dst: p, A: ir.R(p), B: ir.Imm(8)})
	x.jump(head)
	x.b = done
	d := x.alu(ir.Sub, false, ir.R(p), ir.R(base))
	x.ret(ir.R(x.alu(ir.Add, false, ir.R(sum), ir.R(d))))
	return x.f
}

// TestUnrollAndForward: the pointer loop over a stack array is unrolled,
// the loads are forwarded from the stores and everything folds to a
// constant (the verifier cannot bound this loop when it is left alone).
func TestUnrollAndForward(t *testing.T) {
	o := generate(t, module(stackSum(false)), Options{OptLevel: 2})
	if n := len(o.Funcs[0].Insns); n != 2 {
		t.Errorf("%d instructions, want 2:\n%s", n, Listing(o))
	}
	if got := runModule(t, module(stackSum(false)), "prog", Options{OptLevel: 2}, nil); got != 42 {
		t.Errorf("got %d, want 42", got)
	}
}

// TestVolatileSlotKept: accesses of a volatile slot are neither forwarded
// nor deleted.
func TestVolatileSlotKept(t *testing.T) {
	o := generate(t, module(stackSum(true)), Options{OptLevel: 2})
	loads, stores := 0, 0
	for _, ins := range o.Funcs[0].Insns {
		switch {
		case ins.OpCode.Class().IsLoad() && ins.Src == 10:
			loads++
		case ins.OpCode.Class().IsStore():
			stores++
		}
	}
	if loads != 4 || stores != 4 {
		t.Errorf("%d loads and %d stores of the volatile array, want 4 and 4:\n%s", loads, stores, Listing(o))
	}
	if got := runModule(t, module(stackSum(true)), "prog", Options{OptLevel: 2}, nil); got != 42 {
		t.Errorf("got %d, want 42", got)
	}
}

// TestEscapedSlotNotForwarded: a slot passed to a helper may be written by
// it, so loads after the call are kept. bpf_probe_read_kernel (113) of 8
// bytes from the slot itself leaves it unchanged, so the result is 7.
func TestEscapedSlotNotForwarded(t *testing.T) {
	x := newFunc("prog", "socket", 1)
	s := x.f.NewSlot("buf", 8, 8)
	a := x.f.NewReg()
	x.add(&ir.Instr{Op: ir.OpFrameAddr, Dst: a, Slot: s})
	x.add(&ir.Instr{Op: ir.OpStore, A: ir.R(a), Size: 8, B: ir.Imm(7)})
	x.call(113, ir.R(a), ir.Imm(8), ir.R(a))
	v := x.f.NewReg()
	x.add(&ir.Instr{Op: ir.OpLoad, Dst: v, A: ir.R(a), Size: 8})
	x.ret(ir.R(v))
	o := generate(t, module(x.f), Options{OptLevel: 2})
	if n := len(o.Funcs[0].Insns); n < 6 {
		t.Errorf("only %d instructions: the load was forwarded across the call:\n%s", n, Listing(o))
	}
}
