package codegen

import (
	"fmt"
	"math"
	"testing"

	"github.com/bpfcc/bpfcc/ir"
	"github.com/cilium/ebpf/asm"
)

// opaqueZero returns a register holding 0 that no pass can see through:
// the socket buffer's 32-bit length shifted right by 31 (32-bit) or 32.
func opaqueZero(x *fb, w32 bool) ir.Reg {
	l := x.f.NewReg()
	x.add(&ir.Instr{Op: ir.OpLoad, Dst: l, A: ir.R(x.param(0)), Size: 4, Space: ir.SpaceCtx})
	if w32 {
		return x.alu(ir.Rsh, true, ir.R(l), ir.Imm(31))
	}
	return x.alu(ir.Rsh, false, ir.R(l), ir.Imm(32))
}

// opaque returns a register holding v that no pass can see through.
func opaque(x *fb, v int64) ir.Reg {
	return x.alu(ir.Add, false, ir.R(opaqueZero(x, false)), ir.Imm(v))
}

// TestPow2DivMod runs division, remainder and multiplication by constant
// powers of two (strength-reduced by foldInstr, signed ones expanded by
// sdivPow2 below v4, remainders tested against zero masked) on dividends
// the compiler cannot see, against Go's C-truncating semantics.
func TestPow2DivMod(t *testing.T) {
	divisors := []int64{1, 2, 4, 8, 1 << 20, 1 << 31, 1 << 40, -1, -2, -4, -(1 << 31), math.MinInt64}
	var cases []checkCase
	for _, op := range []ir.ALU{ir.SDiv, ir.SMod, ir.UDiv, ir.UMod, ir.Mul} {
		for _, w32 := range []bool{false, true} {
			for _, a := range interesting {
				for _, d := range divisors {
					op, w32, a, d := op, w32, a, d
					cases = append(cases, checkCase{fmt.Sprintf("%s%v %d,%d", op, w32, a, d), func(x *fb) ir.Operand {
						return ir.R(x.alu(op, w32, ir.R(opaque(x, a)), ir.Imm(d)))
					}, ir.EvalALU(op, w32, a, d)})
					if op == ir.SMod {
						// Only zero-tested: becomes a mask.
						cases = append(cases, checkCase{fmt.Sprintf("zero-tested %s%v %d,%d", op, w32, a, d), func(x *fb) ir.Operand {
							r := x.alu(op, w32, ir.R(opaque(x, a)), ir.Imm(d))
							z, nz := x.f.NewBlock(), x.f.NewBlock()
							res := x.f.NewReg()
							x.branch(ir.Eq, w32, ir.R(r), ir.Imm(0), z, nz)
							join := x.f.NewBlock()
							z.Instrs = []*ir.Instr{{Op: ir.OpMov, Dst: res, A: ir.Imm(1)}, {Op: ir.OpJump, Then: join}}
							nz.Instrs = []*ir.Instr{{Op: ir.OpMov, Dst: res, A: ir.Imm(2)}, {Op: ir.OpJump, Then: join}}
							x.b = join
							return ir.R(res)
						}, map[bool]int64{true: 1, false: 2}[ir.EvalALU(op, w32, a, d) == 0]})
					}
				}
			}
		}
	}
	for _, opts := range []Options{{CPU: 1, OptLevel: 2}, {CPU: 3, OptLevel: 2}, {CPU: 3, OptLevel: 0}, {CPU: 4, OptLevel: 2}} {
		t.Run(fmt.Sprintf("v%d-O%d", opts.CPU, opts.OptLevel), func(t *testing.T) { runChecks(t, cases, opts) })
	}
}

// TestSDivPow2Short: below v4 a signed division by 4 is four ALU
// instructions (plus copies), not the general sign-magnitude expansion.
func TestSDivPow2Short(t *testing.T) {
	x := newFunc("prog", "socket", 1)
	x.ret(ir.R(x.alu(ir.SDiv, true, ir.R(opaque(x, -7)), ir.Imm(4))))
	o := generate(t, module(x.f), Options{CPU: 3, OptLevel: 2})
	alu := 0
	for _, ins := range o.Funcs[0].Insns {
		if c := ins.OpCode.Class(); c.IsALU() && ins.OpCode.ALUOp() != asm.Mov {
			alu++
		}
	}
	if alu > 6 { // opaque's shift and add, then sign, bias, add, shift
		t.Errorf("%d ALU instructions, want at most 6:\n%s", alu, Listing(o))
	}
	if got := int32(runModule(t, module(x.f), "prog", Options{CPU: 3, OptLevel: 2}, nil)); got != -1 {
		t.Errorf("-7/4 = %d, want -1", got)
	}
}

// branchFacts builds "r = z; i = r + 1; if r != 0 return 1; if i != 1
// return 2; return 0" (z an opaque zero) with 32-bit comparisons: after the
// first test the second is known to pass.
func branchFacts() *ir.Func {
	x := newFunc("prog", "socket", 1)
	l := opaqueZero(x, true)
	r := x.mov(ir.R(l))
	i := x.alu(ir.Add, true, ir.R(l), ir.Imm(1))
	for k, c := range []struct {
		reg  ir.Reg
		want int64
	}{{r, 0}, {i, 1}} {
		fail, next := x.f.NewBlock(), x.f.NewBlock()
		x.branch(ir.Ne, true, ir.R(c.reg), ir.Imm(c.want), fail, next)
		fail.Instrs = []*ir.Instr{{Op: ir.OpRet, A: ir.Imm(int64(k + 1))}}
		x.b = next
	}
	x.ret(ir.Imm(0))
	return x.f
}

// TestBranchFacts: the edge where "r == 0" holds knows r, and replaying
// the block knows i = r + 1, so the second test disappears.
func TestBranchFacts(t *testing.T) {
	o := generate(t, module(branchFacts()), Options{CPU: 3, OptLevel: 2})
	jumps := 0
	for _, ins := range o.Funcs[0].Insns {
		if ins.OpCode.Class().IsJump() && ins.OpCode.JumpOp() != asm.Exit && ins.OpCode.JumpOp() != asm.Ja {
			jumps++
		}
	}
	if jumps != 1 {
		t.Errorf("%d conditional jumps, want 1:\n%s", jumps, Listing(o))
	}
	if got := runModule(t, module(branchFacts()), "prog", Options{CPU: 3, OptLevel: 2}, nil); got != 0 {
		t.Errorf("got %d, want 0", got)
	}
}

// rodataLoad returns a program loading a u16 at offset 2 of global g.
func rodataLoad() *ir.Func {
	x := newFunc("prog", "socket", 1)
	p := x.f.NewReg()
	x.add(&ir.Instr{Op: ir.OpSymAddr, Dst: p, Sym: "tab"})
	v := x.f.NewReg()
	x.add(&ir.Instr{Op: ir.OpLoad, Dst: v, A: ir.R(p), Off: 2, Size: 2, Space: ir.SpaceGlobal})
	x.ret(ir.R(v))
	return x.f
}

// TestRodataFold: a load from a Const global folds to its contents; from
// a .rodata global not marked Const (const volatile: the loader may rewrite
// it) it stays.
func TestRodataFold(t *testing.T) {
	for _, konst := range []bool{true, false} {
		m := module(rodataLoad())
		m.Globals = []*ir.Global{{Name: "tab", Section: ".rodata", Size: 4, Align: 2, Init: []byte{1, 0, 0x34, 0x12}, Const: konst}}
		o := generate(t, m, Options{OptLevel: 2})
		loads := 0
		for _, ins := range o.Funcs[0].Insns {
			if ins.OpCode.Class().IsLoad() && ins.OpCode.Mode() == asm.MemMode {
				loads++
			}
		}
		switch {
		case konst && (loads != 0 || len(o.Funcs[0].Insns) != 2 || o.Funcs[0].Insns[0].Constant != 0x1234):
			t.Errorf("Const global: want r0 = 0x1234; exit:\n%s", Listing(o))
		case !konst && loads != 1:
			t.Errorf("non-Const global: %d loads, want 1:\n%s", loads, Listing(o))
		}
	}
}
