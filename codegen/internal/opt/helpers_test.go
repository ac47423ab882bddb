package opt

import "github.com/bpfcc/bpfcc/ir"

// fb builds an ir.Func one block at a time (as codegen's tests do).
type fb struct {
	f *ir.Func
	b *ir.Block
}

func newFunc(name, section string, params int) *fb {
	f := &ir.Func{Name: name, Section: section, Returns: true}
	for i := 0; i < params; i++ {
		f.Params = append(f.Params, f.NewReg())
	}
	x := &fb{f: f}
	x.b = f.NewBlock()
	return x
}

func (x *fb) param(i int) ir.Reg { return x.f.Params[i] }

func (x *fb) add(in *ir.Instr) *ir.Instr {
	x.b.Instrs = append(x.b.Instrs, in)
	return in
}

func (x *fb) mov(a ir.Operand) ir.Reg {
	d := x.f.NewReg()
	x.add(&ir.Instr{Op: ir.OpMov, Dst: d, A: a})
	return d
}

func (x *fb) alu(op ir.ALU, w32 bool, a, b ir.Operand) ir.Reg {
	d := x.f.NewReg()
	x.add(&ir.Instr{Op: ir.OpALU, ALU: op, W32: w32, Dst: d, A: a, B: b})
	return d
}

func (x *fb) call(helper int64, args ...ir.Operand) ir.Reg {
	d := x.f.NewReg()
	x.add(&ir.Instr{Op: ir.OpCall, Dst: d, Imm: helper, Args: args})
	return d
}

func (x *fb) ret(a ir.Operand) { x.add(&ir.Instr{Op: ir.OpRet, A: a}) }

func (x *fb) jump(t *ir.Block) { x.add(&ir.Instr{Op: ir.OpJump, Then: t}) }

func (x *fb) branch(c ir.Cond, w32 bool, a, b ir.Operand, then, els *ir.Block) {
	x.add(&ir.Instr{Op: ir.OpBranch, Cond: c, W32: w32, A: a, B: b, Then: then, Else: els})
}

func module(fs ...*ir.Func) *ir.Module { return &ir.Module{File: "test.c", License: "GPL", Funcs: fs} }
