package codegen

import (
	"fmt"
	"math"
	"testing"

	"github.com/bpfcc/bpfcc/ir"
)

var interesting = []int64{0, 1, -1, 2, 3, 7, -7, 10, -10, 31, 32, 63, 64, 0x7fffffff, -0x80000000, 0xffffffff,
	0x123456789, math.MaxInt64, math.MinInt64, -0x100000000, 1000000007}

// checkChain builds one program computing every case and returning the
// number of the first wrong one, or 0.
type checkCase struct {
	name string
	emit func(x *fb) ir.Operand
	want int64
}

func runChecks(t *testing.T, cases []checkCase, opts Options) {
	t.Helper()
	const per = 150 // cases per program, to keep programs small
	for start := 0; start < len(cases); start += per {
		end := min(start+per, len(cases))
		x := newFunc("prog", "socket", 1)
		for i, c := range cases[start:end] {
			x.check(c.emit(x), c.want, int64(start+i+1))
		}
		x.ret(ir.Imm(0))
		if got := runModule(t, module(x.f), "prog", opts, nil); got != 0 {
			c := cases[got-1]
			t.Fatalf("case %d %s: wrong result (want %d)", got, c.name, c.want)
		}
	}
}

// TestALU checks every ALU operation on register operands (the kernel
// computes) and immediate operands (isel and folding compute) against Go.
func TestALU(t *testing.T) {
	ops := []ir.ALU{ir.Add, ir.Sub, ir.Mul, ir.UDiv, ir.UMod, ir.SDiv, ir.SMod, ir.Or, ir.And, ir.Xor, ir.Lsh, ir.Rsh, ir.Arsh}
	var cases []checkCase
	for _, op := range ops {
		for _, w32 := range []bool{false, true} {
			for _, a := range interesting {
				for _, b := range interesting {
					if (op == ir.Lsh || op == ir.Rsh || op == ir.Arsh) && (b < 0 || b > 63 || (w32 && b > 31)) {
						continue
					}
					want := ir.EvalALU(op, w32, a, b)
					a, b, op, w32 := a, b, op, w32
					cases = append(cases,
						checkCase{fmt.Sprintf("%s%v reg %d,%d", op, w32, a, b), func(x *fb) ir.Operand {
							return ir.R(x.alu(op, w32, ir.R(x.mov(ir.Imm(a))), ir.R(x.mov(ir.Imm(b)))))
						}, want},
						checkCase{fmt.Sprintf("%s%v imm %d,%d", op, w32, a, b), func(x *fb) ir.Operand {
							return ir.R(x.alu(op, w32, ir.R(x.mov(ir.Imm(a))), ir.Imm(b)))
						}, want})
				}
			}
		}
	}
	for _, o := range []Options{{CPU: 3}, {CPU: 4}, {CPU: 2, OptLevel: 2}} {
		t.Run(fmt.Sprint(o), func(t *testing.T) { runChecks(t, cases, o) })
	}
}

// TestSignedDivision compares the v3 expansion and v4's sdiv/smod with Go.
func TestSignedDivision(t *testing.T) {
	vals := append([]int64{-2, -3, 5, -5, 100, -100, 6, -6, math.MinInt32, math.MaxInt32, math.MinInt32 + 1}, interesting...)
	var cases []checkCase
	for _, w32 := range []bool{false, true} {
		for _, a := range vals {
			for _, b := range vals {
				if b == 0 {
					continue
				}
				var q, r int64
				if w32 {
					if int32(b) == 0 {
						continue
					}
					q, r = int64(uint32(int32(a)/int32(b))), int64(uint32(int32(a)%int32(b)))
				} else {
					q, r = a/b, a%b
				}
				a, b, w32 := a, b, w32
				for _, imm := range []bool{false, true} {
					imm := imm
					operand := func(x *fb) ir.Operand {
						if imm {
							return ir.Imm(b)
						}
						return ir.R(x.mov(ir.Imm(b)))
					}
					cases = append(cases,
						checkCase{fmt.Sprintf("sdiv%v %d/%d imm=%v", w32, a, b, imm), func(x *fb) ir.Operand {
							return ir.R(x.alu(ir.SDiv, w32, ir.R(x.mov(ir.Imm(a))), operand(x)))
						}, q},
						checkCase{fmt.Sprintf("smod%v %d%%%d imm=%v", w32, a, b, imm), func(x *fb) ir.Operand {
							return ir.R(x.alu(ir.SMod, w32, ir.R(x.mov(ir.Imm(a))), operand(x)))
						}, r})
				}
			}
		}
	}
	for _, o := range []Options{{CPU: 3}, {CPU: 4}, {CPU: 1}} {
		t.Run(fmt.Sprint(o), func(t *testing.T) { runChecks(t, cases, o) })
	}
}

// TestUnary checks Neg, Ext and Bswap on register operands.
func TestUnary(t *testing.T) {
	var cases []checkCase
	for _, a := range interesting {
		a := a
		for _, w32 := range []bool{false, true} {
			w32 := w32
			cases = append(cases, checkCase{fmt.Sprintf("neg%v %d", w32, a), func(x *fb) ir.Operand {
				d := x.f.NewReg()
				x.add(&ir.Instr{Op: ir.OpNeg, W32: w32, Dst: d, A: ir.R(x.mov(ir.Imm(a)))})
				return ir.R(d)
			}, ir.EvalALU(ir.Sub, w32, 0, a)})
		}
		for _, bits := range []int{8, 16, 32} {
			for _, signed := range []bool{false, true} {
				bits, signed := bits, signed
				cases = append(cases, checkCase{fmt.Sprintf("ext%d%v %d", bits, signed, a), func(x *fb) ir.Operand {
					d := x.f.NewReg()
					x.add(&ir.Instr{Op: ir.OpExt, Bits: bits, Signed: signed, Dst: d, A: ir.R(x.mov(ir.Imm(a)))})
					return ir.R(d)
				}, ir.EvalExt(a, bits, signed)})
			}
		}
		for _, bits := range []int{16, 32, 64} {
			bits := bits
			cases = append(cases, checkCase{fmt.Sprintf("bswap%d %d", bits, a), func(x *fb) ir.Operand {
				d := x.f.NewReg()
				x.add(&ir.Instr{Op: ir.OpBswap, Bits: bits, Dst: d, A: ir.R(x.mov(ir.Imm(a)))})
				return ir.R(d)
			}, ir.EvalBswap(a, bits)})
		}
	}
	if ir.EvalBswap(0x1122, 16) != 0x2211 || ir.EvalBswap(0x11223344, 32) != 0x44332211 {
		t.Fatal("evalBswap is wrong")
	}
	for _, o := range allOpts {
		t.Run(fmt.Sprint(o), func(t *testing.T) { runChecks(t, cases, o) })
	}
}

// TestBranches checks every condition, 32 and 64 bits, register and
// immediate forms, on every CPU version.
func TestBranches(t *testing.T) {
	conds := []ir.Cond{ir.Eq, ir.Ne, ir.Ugt, ir.Uge, ir.Ult, ir.Ule, ir.Sgt, ir.Sge, ir.Slt, ir.Sle, ir.Set}
	vals := []int64{0, 1, -1, 5, -5, 0x7fffffff, -0x80000000, 0xffffffff, 0x100000001, math.MinInt64, 0x80000000}
	var cases []checkCase
	for _, c := range conds {
		for _, w32 := range []bool{false, true} {
			for _, a := range vals {
				for _, b := range vals {
					want := int64(0)
					if ir.EvalCond(c, w32, a, b) {
						want = 1
					}
					for form := 0; form < 3; form++ {
						c, w32, a, b, form := c, w32, a, b, form
						cases = append(cases, checkCase{fmt.Sprintf("%s%v %d,%d form %d", c, w32, a, b, form), func(x *fb) ir.Operand {
							res := x.f.NewReg()
							tb, eb, join := x.f.NewBlock(), x.f.NewBlock(), x.f.NewBlock()
							A, B := ir.Operand(ir.R(x.mov(ir.Imm(a)))), ir.Operand(ir.R(x.mov(ir.Imm(b))))
							switch form {
							case 1:
								B = ir.Imm(b)
							case 2:
								A = ir.Imm(a)
							}
							x.branch(c, w32, A, B, tb, eb)
							tb.Instrs = []*ir.Instr{{Op: ir.OpMov, Dst: res, A: ir.Imm(1)}, {Op: ir.OpJump, Then: join}}
							eb.Instrs = []*ir.Instr{{Op: ir.OpMov, Dst: res, A: ir.Imm(0)}, {Op: ir.OpJump, Then: join}}
							x.b = join
							return ir.R(res)
						}, want})
					}
				}
			}
		}
	}
	// Sanity of evalCond itself.
	if !ir.EvalCond(ir.Slt, true, 0xffffffff, 0) || ir.EvalCond(ir.Ult, false, -1, 0) || !ir.EvalCond(ir.Set, false, 6, 2) {
		t.Fatal("evalCond is wrong")
	}
	for _, o := range allOpts {
		t.Run(fmt.Sprint(o), func(t *testing.T) { runChecks(t, cases, o) })
	}
}
