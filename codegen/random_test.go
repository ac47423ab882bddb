package codegen

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/bpfcc/bpfcc/ir"
)

// TestRandomPrograms builds random straight-line programs with many values
// live across helper calls and diamonds, runs them in the kernel and
// compares the result with a Go evaluation of the same IR. It stresses
// register allocation, spilling and coalescing.
func TestRandomPrograms(t *testing.T) {
	ops := []ir.ALU{ir.Add, ir.Sub, ir.Mul, ir.UDiv, ir.UMod, ir.SDiv, ir.SMod, ir.Or, ir.And, ir.Xor, ir.Lsh, ir.Rsh, ir.Arsh}
	const skbLen = 50
	for seed := int64(1); seed <= 12; seed++ {
		rng := rand.New(rand.NewSource(seed))
		x := newFunc("prog", "socket", 1)
		vals := map[ir.Reg]int64{}
		var regs []ir.Reg
		l := x.f.NewReg()
		x.add(&ir.Instr{Op: ir.OpLoad, Dst: l, A: ir.R(x.param(0)), Size: 4, Space: ir.SpaceCtx})
		vals[l] = skbLen
		regs = append(regs, l)
		pick := func() ir.Reg { return regs[rng.Intn(len(regs))] }
		for i := 0; i < 60; i++ {
			switch r := rng.Intn(10); {
			case r == 0:
				x.add(&ir.Instr{Op: ir.OpCall, Imm: helperKtimeGetNS})
			case r == 1:
				// A diamond choosing between two values on a known condition.
				a, b := pick(), pick()
				d := x.f.NewReg()
				tb, eb, join := x.f.NewBlock(), x.f.NewBlock(), x.f.NewBlock()
				x.branch(ir.Ugt, false, ir.R(a), ir.R(b), tb, eb)
				tb.Instrs = []*ir.Instr{{Op: ir.OpALU, ALU: ir.Sub, Dst: d, A: ir.R(a), B: ir.R(b)}, {Op: ir.OpJump, Then: join}}
				eb.Instrs = []*ir.Instr{{Op: ir.OpALU, ALU: ir.Add, Dst: d, A: ir.R(a), B: ir.Imm(3)}, {Op: ir.OpJump, Then: join}}
				x.b = join
				if uint64(vals[a]) > uint64(vals[b]) {
					vals[d] = vals[a] - vals[b]
				} else {
					vals[d] = vals[a] + 3
				}
				regs = append(regs, d)
			default:
				op := ops[rng.Intn(len(ops))]
				w32 := rng.Intn(3) == 0
				a := ir.R(pick())
				var b ir.Operand
				if rng.Intn(3) == 0 {
					b = ir.Imm(rng.Int63n(200) - 100)
				} else {
					b = ir.R(pick())
				}
				if op == ir.Lsh || op == ir.Rsh || op == ir.Arsh {
					b = ir.Imm(rng.Int63n(31))
				}
				bv := b.Imm
				if !b.IsImm {
					bv = vals[b.Reg]
				}
				if (op >= ir.UDiv && op <= ir.SMod) && b.IsImm && b.Imm == 0 {
					b, bv = ir.Imm(7), 7
				}
				d := x.alu(op, w32, a, b)
				vals[d] = ir.EvalALU(op, w32, vals[a.Reg], bv)
				regs = append(regs, d)
			}
		}
		// Combine a good share of the values so they all stay live.
		acc := x.mov(ir.Imm(0))
		want := int64(0)
		for i, r := range regs {
			if i%2 == 0 || i > len(regs)-10 {
				x.add(&ir.Instr{Op: ir.OpALU, ALU: ir.Xor, Dst: acc, A: ir.R(acc), B: ir.R(r)})
				want ^= vals[r]
				x.add(&ir.Instr{Op: ir.OpALU, ALU: ir.Mul, Dst: acc, A: ir.R(acc), B: ir.Imm(31)})
				want *= 31
			}
		}
		hi := x.alu(ir.Rsh, false, ir.R(acc), ir.Imm(32))
		res := x.alu(ir.Xor, false, ir.R(acc), ir.R(hi))
		x.ret(ir.R(res))
		want = want ^ int64(uint64(want)>>32)
		if o := generate(t, module(x.f), Options{OptLevel: 2}); o.Funcs[0].StackSize == 0 {
			t.Errorf("seed %d: no spills; the test is too easy", seed)
		}
		for _, o := range []Options{{CPU: 3}, {CPU: 3, OptLevel: 2}, {CPU: 4, OptLevel: 2}, {CPU: 1, OptLevel: 1}} {
			t.Run(fmt.Sprintf("seed%d/%v", seed, o), func(t *testing.T) {
				if got := runModule(t, module(x.f), "prog", o, nil); got != uint32(want) {
					t.Fatalf("got %#x, want %#x\n%s", got, uint32(want), Listing(generate(t, module(x.f), o)))
				}
			})
		}
	}
}
