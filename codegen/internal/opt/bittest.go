package opt

import "github.com/bpfcc/bpfcc/ir"

// testBits turns a branch on whether extracted bits are zero into a JSET
// of the source: `if (tcph->fin || tcph->syn)` loads the flags byte and
// extracts each one-bit field with a left and a right shift, where testing
// the byte against the field's mask is one instruction instead of three.
// The patterns, in one block before the branch `if r ==/!= 0`:
//
//	r = rsh (lsh x, a), b     b >= a: bits b-a .. of x (64 or 32 bits wide)
//	r = and x, m
//
// with x not redefined between its use and the branch and r read nowhere
// else. The shifts and the and become dead.
func testBits(f *ir.Func, _ *passCtx) {
	uses := useCounts(f)
	for _, b := range f.Blocks {
		t := b.Term()
		if t == nil || t.Op != ir.OpBranch || t.Cond != ir.Eq && t.Cond != ir.Ne {
			continue
		}
		r := t.A
		if r.IsImm {
			r = t.B
			if !t.A.IsImm || t.A.Imm != 0 {
				continue
			}
		} else if !t.B.IsImm || t.B.Imm != 0 {
			continue
		}
		if r.IsImm || uses[r.Reg] > 1 {
			// A value read again after the test is tested itself, as
			// clang tests it: a JSET of the source tells the verifier
			// nothing about it (beyla's len = x & 0xffff; if (len == 0
			// ...) passed as a size: "invalid zero-sized read").
			continue
		}
		n := len(b.Instrs) - 1
		x, mask, ok := bitsTested(b.Instrs[:n], r.Reg, t.W32)
		if !ok {
			continue
		}
		if t.Cond == ir.Eq {
			t.Then, t.Else = t.Else, t.Then
			t.Likely = t.Likely.Flip()
		}
		t.Cond, t.A, t.B = ir.Set, ir.R(x), ir.Imm(mask)
	}
}

// lastDef is the index in instrs of r's last definition, or -1.
func lastDef(instrs []*ir.Instr, r ir.Reg) int {
	for i := len(instrs) - 1; i >= 0; i-- {
		if instrs[i].Dst == r {
			return i
		}
	}
	return -1
}

// bitsTested returns x and the mask m such that r != 0 (compared in 32
// bits when w32) holds exactly when x & m != 0, for r computed by the
// patterns of testBits in instrs.
func bitsTested(instrs []*ir.Instr, r ir.Reg, w32 bool) (ir.Reg, int64, bool) {
	i := lastDef(instrs, r)
	if i < 0 {
		return 0, 0, false
	}
	in := instrs[i]
	if in.Op != ir.OpALU || in.A.IsImm || !in.B.IsImm {
		return 0, 0, false
	}
	var x ir.Reg
	var mask uint64
	switch in.ALU {
	case ir.And:
		x, mask = in.A.Reg, uint64(in.B.Imm)
		if in.W32 || w32 {
			mask &= 0xffffffff
		}
	case ir.Rsh:
		j := lastDef(instrs[:i], in.A.Reg)
		if j < 0 {
			return 0, 0, false
		}
		sh := instrs[j]
		if sh.Op != ir.OpALU || sh.ALU != ir.Lsh || sh.W32 != in.W32 || sh.A.IsImm || !sh.B.IsImm {
			return 0, 0, false
		}
		bits := int64(64)
		if in.W32 {
			bits = 32
		}
		a, bb := sh.B.Imm, in.B.Imm
		if a < 0 || bb < a || bb >= bits {
			return 0, 0, false
		}
		// A 64-bit result compared in 32 bits must fit in them.
		if w32 && !in.W32 && bb < 32 {
			return 0, 0, false
		}
		x, mask = sh.A.Reg, (uint64(1)<<(bits-bb)-1)<<(bb-a)
		i = j
	default:
		return 0, 0, false
	}
	// JSET's immediate is sign-extended: keep masks it holds as they are.
	if mask == 0 || mask > 0x7fffffff {
		return 0, 0, false
	}
	for _, in := range instrs[i:] {
		if in.Dst == x {
			return 0, 0, false
		}
	}
	return x, int64(mask), true
}
