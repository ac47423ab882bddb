package opt

import (
	"math/bits"

	"github.com/bpfcc/bpfcc/ir"
)

// selectBits turns `if (x & C1) r |= C2;` with one-bit C1 and C2 into
// r |= (x & C1) shifted to C2's bit, as clang does: flag translation
// tables (falco's quotactl and ptrace flags to its own) are chains of such
// tests, and as branches each path carries another constant r, which the
// verifier cannot merge once r is compared (1,816 insns against clang's
// 52 for eight tests). The pattern is a block ending
//
//	if x set C1 goto T else J
//
// where T, reached only from there, is `r = or r, C2` (through copies, see
// setsBit, or `r = mov C2` when r is 0 there) and a jump to J.
func selectBits(f *ir.Func, _ *passCtx) {
	preds := map[*ir.Block][]*ir.Block{}
	for _, b := range f.Blocks {
		for _, s := range b.Succs() {
			preds[s] = append(preds[s], b)
		}
	}
	uses := useCounts(f)
	w := valueWidths(f)
	changed := false
	for _, a := range f.Blocks {
		t := a.Term()
		if t == nil || t.Op != ir.OpBranch || t.Cond != ir.Set || t.Then == a || len(preds[t.Then]) != 1 {
			continue
		}
		x, c1 := t.A, t.B
		if x.IsImm {
			x, c1 = c1, x
		}
		if x.IsImm || !c1.IsImm || c1.Imm <= 0 || bits.OnesCount64(uint64(c1.Imm)) != 1 {
			continue
		}
		body := t.Then.Instrs
		if len(body) < 2 {
			continue
		}
		end := body[len(body)-1]
		if end.Op != ir.OpJump || end.Then != t.Else {
			continue
		}
		or, ok := setsBit(a, body[:len(body)-1], uses, w, preds)
		if !ok || bits.OnesCount64(uint64(or.c2)) != 1 {
			continue
		}
		from, to := bits.TrailingZeros64(uint64(c1.Imm)), bits.TrailingZeros64(uint64(or.c2))
		bit := f.NewReg()
		seq := []*ir.Instr{{Op: ir.OpALU, ALU: ir.And, Dst: bit, A: x, B: c1, Pos: t.Pos}}
		if from != to {
			sh, op := to-from, ir.Lsh
			if sh < 0 {
				sh, op = -sh, ir.Rsh
			}
			moved := f.NewReg()
			seq = append(seq, &ir.Instr{Op: ir.OpALU, ALU: op, Dst: moved, A: ir.R(bit), B: ir.Imm(int64(sh)), Pos: t.Pos})
			bit = moved
		}
		if or.fromZero {
			seq = append(seq, &ir.Instr{Op: ir.OpMov, Dst: or.dst, A: ir.R(bit), Pos: t.Pos})
		} else {
			seq = append(seq, &ir.Instr{Op: ir.OpALU, ALU: ir.Or, Dst: or.dst, A: ir.R(or.r), B: ir.R(bit), W32: or.w32, Pos: t.Pos})
		}
		seq = append(seq, &ir.Instr{Op: ir.OpJump, Then: t.Else, Pos: t.Pos})
		a.Instrs = append(a.Instrs[:len(a.Instrs)-1], seq...)
		preds[t.Then] = nil
		changed = true
	}
	if changed {
		mergeMaskedOrs(f)
	}
}

// mergeMaskedOrs turns `r = or a, b`, where a holds x & M1 and b holds
// x & M2, into `r = and x, M1 | M2`, as clang's instcombine: a chain of
// selectBits' conversions whose bits stay where they are (falco's
// capabilities_to_scap: 41 tests of `caps & (1 << n)` setting the same bit,
// 141 instructions against clang's 13) is one mask. What a register holds
// flows down straight-line code, into a block whose only predecessor
// jumps to it.
func mergeMaskedOrs(f *ir.Func) {
	renumber(f)
	order := reversePostorder(f) // the reachable blocks: the then-blocks selectBits left are not
	npreds := map[*ir.Block]int{}
	for _, bi := range order {
		for _, s := range f.Blocks[bi].Succs() {
			npreds[s]++
		}
	}
	type masked struct {
		x    ir.Reg
		mask int64
	}
	// state is what registers hold: x & mask, or a copy of another.
	type state struct {
		and    map[ir.Reg]masked
		copyOf map[ir.Reg]ir.Reg
	}
	held := map[*ir.Block]state{}
	for _, bi := range order {
		b := f.Blocks[bi]
		st, ok := held[b]
		if !ok {
			st = state{map[ir.Reg]masked{}, map[ir.Reg]ir.Reg{}}
		}
		root := func(r ir.Reg) ir.Reg {
			if c, ok := st.copyOf[r]; ok {
				return c
			}
			return r
		}
		for _, in := range b.Instrs {
			if in.Dst == 0 {
				continue
			}
			var v masked
			isAnd, copied := false, ir.Reg(0)
			switch {
			case in.Op == ir.OpALU && in.ALU == ir.And && !in.W32 && !in.A.IsImm && in.B.IsImm:
				v, isAnd = masked{root(in.A.Reg), in.B.Imm}, true
			case in.Op == ir.OpMov && !in.A.IsImm:
				v, isAnd = st.and[in.A.Reg]
				copied = root(in.A.Reg)
			case in.Op == ir.OpALU && in.ALU == ir.Or && !in.W32 && !in.A.IsImm && !in.B.IsImm:
				p, okA := st.and[in.A.Reg]
				q, okB := st.and[in.B.Reg]
				if okA && okB && p.x == q.x {
					v, isAnd = masked{p.x, p.mask | q.mask}, true
					*in = ir.Instr{Op: ir.OpALU, ALU: ir.And, Dst: in.Dst, A: ir.R(p.x), B: ir.Imm(v.mask), Pos: in.Pos, Note: in.Note}
				}
			}
			// in.Dst changes: what it held or was a copy of goes.
			for r, e := range st.and {
				if r == in.Dst || e.x == in.Dst {
					delete(st.and, r)
				}
			}
			for r, c := range st.copyOf {
				if r == in.Dst || c == in.Dst {
					delete(st.copyOf, r)
				}
			}
			if isAnd && v.x != in.Dst {
				st.and[in.Dst] = v
			}
			if copied != 0 && copied != in.Dst {
				st.copyOf[in.Dst] = copied
			}
		}
		if t := b.Term(); t != nil && t.Op == ir.OpJump && npreds[t.Then] == 1 && t.Then != b {
			held[t.Then] = st
		}
	}
}

// bitOr is what a then-block of selectBits sets.
type bitOr struct {
	r, dst   ir.Reg // the register or'd, and the one the or writes
	w32      bool
	c2       int64
	fromZero bool // r = mov C2 where r is 0
}

// setsBit matches the then-block's instructions: r = or r, C2, through
// copies into registers used only there (`t = mov r; u = or t, C2; r = mov
// u`, what inlining a `m->flags |= C2` leaves); or r = mov C2 with r
// holding 0 where a ends, by the last assignment on the single-predecessor
// path up to a. A 32-bit or needs r to fit 32 bits: the untaken path does
// not zero-extend it.
func setsBit(a *ir.Block, ins []*ir.Instr, uses map[ir.Reg]int, w widths, preds map[*ir.Block][]*ir.Block) (bitOr, bool) {
	if len(ins) == 1 && ins[0].Op == ir.OpMov && ins[0].A.IsImm && ins[0].A.Imm > 0 {
		r := ins[0].Dst
		if !zeroAtEnd(a, r, preds) {
			return bitOr{}, false
		}
		return bitOr{r: r, dst: r, c2: ins[0].A.Imm, fromZero: true}, true
	}
	if len(ins) > 6 {
		return bitOr{}, false
	}
	// Each register the block writes holds base | k.
	type expr struct {
		base ir.Reg
		k    int64
		w32  bool
	}
	val := map[ir.Reg]expr{}
	read := func(o ir.Operand) expr {
		if e, ok := val[o.Reg]; ok {
			return e
		}
		return expr{base: o.Reg}
	}
	local := map[ir.Reg]int{} // uses within the block
	for _, in := range ins {
		switch {
		case in.Op == ir.OpMov && !in.A.IsImm:
			local[in.A.Reg]++
			val[in.Dst] = read(in.A)
		case in.Op == ir.OpALU && in.ALU == ir.Or && !in.A.IsImm && in.B.IsImm:
			local[in.A.Reg]++
			e := read(in.A)
			val[in.Dst] = expr{e.base, e.k | in.B.Imm, e.w32 || in.W32}
		default:
			return bitOr{}, false
		}
	}
	// One register ends as itself | C2; the others are temporaries.
	var r ir.Reg
	for d, e := range val {
		if e.base == d {
			if r != 0 {
				return bitOr{}, false
			}
			r = d
		} else if uses[d] != local[d] {
			return bitOr{}, false
		}
	}
	if r == 0 {
		return bitOr{}, false
	}
	e := val[r]
	if e.k == 0 || e.w32 && w.of(ir.R(r)) > 32 {
		return bitOr{}, false
	}
	return bitOr{r: r, dst: r, c2: e.k, w32: e.w32}, true
}

// zeroAtEnd reports whether r holds 0 where a ends: its last assignment
// on the path of single predecessors up to a is `r = mov 0`.
func zeroAtEnd(a *ir.Block, r ir.Reg, preds map[*ir.Block][]*ir.Block) bool {
	b, instrs := a, a.Instrs[:len(a.Instrs)-1]
	for range 16 {
		if i := lastDef(instrs, r); i >= 0 {
			d := instrs[i]
			return d.Op == ir.OpMov && d.A.IsImm && d.A.Imm == 0
		}
		if len(preds[b]) != 1 || preds[b][0] == a {
			return false
		}
		b = preds[b][0]
		instrs = b.Instrs
	}
	return false
}
