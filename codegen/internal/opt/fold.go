package opt

import (
	"math/bits"

	"github.com/bpfcc/bpfcc/ir"
)

// defCounts counts the definitions of each register; parameters count as
// one definition at entry.
// defsOf lists each register's definitions.
func defsOf(f *ir.Func) map[ir.Reg][]*ir.Instr {
	defs := map[ir.Reg][]*ir.Instr{}
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			if in.Dst != 0 {
				defs[in.Dst] = append(defs[in.Dst], in)
			}
		}
	}
	return defs
}

// useCounts counts each register's reads.
func useCounts(f *ir.Func) map[ir.Reg]int {
	uses := map[ir.Reg]int{}
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			forEachUse(in, func(o *ir.Operand) { uses[o.Reg]++ })
		}
	}
	return uses
}

func defCounts(f *ir.Func) map[ir.Reg]int {
	n := map[ir.Reg]int{}
	for _, p := range f.Params {
		n[p]++
	}
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			if in.Dst != 0 {
				n[in.Dst]++
			}
		}
	}
	return n
}

// singleDefConsts maps each register whose only definition (by defs) is a
// constant move to the constant.
func singleDefConsts(f *ir.Func, defs map[ir.Reg]int) map[ir.Reg]int64 {
	consts := map[ir.Reg]int64{}
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			if in.Op == ir.OpMov && in.A.IsImm && defs[in.Dst] == 1 {
				consts[in.Dst] = in.A.Imm
			}
		}
	}
	return consts
}

// decideBranch turns branch in, whose operands hold a and b, into a jump
// to the arm it takes.
func decideBranch(in *ir.Instr, a, b int64) {
	takeBranch(in, ir.EvalCond(in.Cond, in.W32, a, b))
}

// takeBranch turns branch in into a jump to its Then arm (taken) or its
// Else arm.
func takeBranch(in *ir.Instr, taken bool) {
	to := in.Else
	if taken {
		to = in.Then
	}
	*in = ir.Instr{Op: ir.OpJump, Then: to, Pos: in.Pos, Note: in.Note}
}

// foldConstants propagates constants (within blocks, and globally for
// registers whose only definition is a constant move), folds operations on
// constants and simple identities, and decides constant branches.
func foldConstants(f *ir.Func, _ *passCtx) {
	foldJoinConstants(f)
	foldPointerDifferences(f)
	defs := defCounts(f)
	global := singleDefConsts(f, defs)
	for _, b := range f.Blocks {
		known := map[ir.Reg]int64{}
		lookup := func(r ir.Reg) (int64, bool) {
			if v, ok := known[r]; ok {
				return v, true
			}
			v, ok := global[r]
			return v, ok
		}
		for _, in := range b.Instrs {
			subst := func(o *ir.Operand) {
				if v, ok := lookup(o.Reg); ok {
					*o = ir.Imm(v)
				}
			}
			switch in.Op {
			case ir.OpLoad:
				// Addresses stay in registers.
			case ir.OpStore:
				// The verifier tracks a constant stored to the stack from a
				// register at any size, but an immediate store only at 8
				// bytes: keep narrow stack stores of registers as they are.
				narrowStack := in.Size < 8 && (in.Slot != nil || in.Space == ir.SpaceStack)
				if !in.B.IsImm && !narrowStack {
					subst(&in.B)
				}
			case ir.OpAtomic:
				if !in.B.IsImm {
					subst(&in.B)
				}
				if in.Atomic == ir.AtomicCmpXchg && !in.C.IsImm {
					subst(&in.C)
				}
			default:
				forEachUse(in, subst)
			}
			foldInstr(in)
			if in.Dst != 0 {
				delete(known, in.Dst)
				if in.Op == ir.OpMov && in.A.IsImm {
					known[in.Dst] = in.A.Imm
				}
			}
		}
	}
	dropNoopExts(f, defs)
}

// dropNoopExts makes a 32-bit extension of a value that fits in 31 bits a
// copy: `hits[cpu & 255]` with an int cpu sign-extends the masked index to
// 64 bits (two shifts below -mcpu=v4), where the mask already cleared bit
// 31 and the upper half. A register qualifies after a definition in the
// same block, or anywhere when it has one definition.
func dropNoopExts(f *ir.Func, defs map[ir.Reg]int) {
	global := map[ir.Reg]bool{}
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			if in.Dst != 0 && defs[in.Dst] == 1 && fits31(in) {
				global[in.Dst] = true
			}
		}
	}
	for _, b := range f.Blocks {
		local := map[ir.Reg]bool{}
		for _, in := range b.Instrs {
			if in.Op == ir.OpExt && in.Bits == 32 && !in.A.IsImm && (local[in.A.Reg] || global[in.A.Reg]) {
				*in = ir.Instr{Op: ir.OpMov, Dst: in.Dst, A: in.A, Pos: in.Pos, Note: in.Note}
			}
			if in.Dst != 0 {
				local[in.Dst] = fits31(in)
			}
		}
	}
}

// fits31 reports whether in leaves its 64-bit result in [0, 2^31).
func fits31(in *ir.Instr) bool {
	switch in.Op {
	case ir.OpALU:
		if !in.B.IsImm {
			return false
		}
		v := in.B.Imm
		switch in.ALU {
		case ir.And:
			if in.W32 {
				v = int64(uint32(v))
			}
			return v >= 0 && v < 1<<31
		case ir.Rsh:
			return in.W32 && v&31 >= 1 || !in.W32 && v&63 >= 33
		}
	case ir.OpLoad:
		return !in.Signed && in.Size <= 2
	case ir.OpExt:
		return !in.Signed && in.Bits <= 16
	case ir.OpBswap:
		return in.Bits == 16 // the upper bits are zeroed
	}
	return false
}

// foldInstr rewrites one instruction whose operands are (partly) constant.
func foldInstr(in *ir.Instr) {
	setMov := func(o ir.Operand) {
		*in = ir.Instr{Op: ir.OpMov, Dst: in.Dst, A: o, Pos: in.Pos, Note: in.Note}
	}
	switch in.Op {
	case ir.OpALU:
		a, b := in.A, in.B
		if a.IsImm && b.IsImm {
			if isDivisionALU(in.ALU) && b.Imm == 0 {
				return // leave division by zero for lower's diagnostics and eBPF semantics
			}
			setMov(ir.Imm(ir.EvalALU(in.ALU, in.W32, a.Imm, b.Imm)))
			return
		}
		if commutative(in.ALU) && a.IsImm {
			in.A, in.B = b, a
			a, b = in.A, in.B
		}
		if !b.IsImm {
			return
		}
		v := b.Imm
		if in.W32 {
			v = int64(uint32(v))
		}
		identity := false
		switch in.ALU {
		case ir.Add, ir.Sub, ir.Or, ir.Xor, ir.Lsh, ir.Rsh, ir.Arsh:
			identity = v == 0
		case ir.Mul, ir.UDiv, ir.SDiv:
			identity = v == 1
		case ir.And:
			identity = (!in.W32 && v == -1) || (in.W32 && v == 0xffffffff)
		}
		zero := (in.ALU == ir.Mul || in.ALU == ir.And) && v == 0
		if k, ok := log2(v); ok && !identity && strengthReduce(in, k) {
			return
		}
		switch {
		case zero:
			setMov(ir.Imm(0))
		case identity && !in.W32:
			setMov(a)
		case identity && in.W32:
			*in = ir.Instr{Op: ir.OpExt, Dst: in.Dst, A: a, Bits: 32, Pos: in.Pos, Note: in.Note}
		}
	case ir.OpNeg:
		if in.A.IsImm {
			setMov(ir.Imm(ir.EvalALU(ir.Sub, in.W32, 0, in.A.Imm)))
		}
	case ir.OpExt:
		if in.A.IsImm {
			setMov(ir.Imm(ir.EvalExt(in.A.Imm, in.Bits, in.Signed)))
		}
	case ir.OpBswap:
		if in.A.IsImm {
			setMov(ir.Imm(ir.EvalBswap(in.A.Imm, in.Bits)))
		}
	case ir.OpBranch:
		if in.A.IsImm && in.B.IsImm {
			decideBranch(in, in.A.Imm, in.B.Imm)
		} else if in.A.IsImm {
			in.A, in.B, in.Cond = in.B, in.A, in.Cond.Mirror()
		}
		if in.Op == ir.OpBranch && in.B.IsImm && in.B.Imm == 0 {
			// Unsigned x <= 0 is x == 0 and x > 0 is x != 0, as clang
			// folds them: no constant register, and a test the
			// verifier reads as null-ness (ptcpdump's `cookie <= 0`).
			switch in.Cond {
			case ir.Ule:
				in.Cond = ir.Eq
			case ir.Ugt:
				in.Cond = ir.Ne
			}
		}
	}
}

// log2 returns k when v (taken as unsigned) is 2^k.
func log2(v int64) (int, bool) {
	u := uint64(v)
	if u == 0 || u&(u-1) != 0 {
		return 0, false
	}
	return bits.TrailingZeros64(u), true
}

// strengthReduce rewrites a multiplication, unsigned division or unsigned
// remainder by 2^k (k > 0) into a shift or a mask; it reports whether it did.
func strengthReduce(in *ir.Instr, k int) bool {
	switch in.ALU {
	case ir.Mul:
		in.ALU, in.B = ir.Lsh, ir.Imm(int64(k))
	case ir.UDiv:
		in.ALU, in.B = ir.Rsh, ir.Imm(int64(k))
	case ir.UMod:
		if k > 31 {
			return false // the mask would need a 64-bit immediate
		}
		in.ALU, in.B = ir.And, ir.Imm(int64(1)<<k-1)
	default:
		return false
	}
	return true
}
