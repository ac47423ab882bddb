package opt

import (
	"maps"
	"math/bits"
	"slices"

	"github.com/bpfcc/bpfcc/codegen/internal/regalloc"
	"github.com/bpfcc/bpfcc/ir"
)

// legalize rewrites operations the target CPU lacks: signed division and
// modulo below v4, 32-bit comparisons below v3.
func legalize(f *ir.Func, c *passCtx) {
	zeroTested := zeroTestedOnly(f)
	var w widths
	var low map[ir.Reg]bool
	var later *laterExts
	// nonNegative reports whether both operands of a signed division are
	// at least 0 at its width: it is then the unsigned one (`u8 /= 30`
	// divides an int-promoted byte; 0 divides and leaves as the signed
	// one does), one instruction instead of the expansion below v4, and
	// a quotient whose range the verifier knows.
	nonNegative := func(in *ir.Instr) bool {
		if w == nil {
			w = valueWidths(f)
		}
		bits := 63
		if in.W32 {
			bits = 31
		}
		return w.of(in.A) <= bits && w.of(in.B) <= bits
	}
	for _, b := range f.Blocks {
		var out []*ir.Instr
		for _, in := range b.Instrs {
			switch {
			case in.Op == ir.OpALU && (in.ALU == ir.SDiv || in.ALU == ir.SMod) && nonNegative(in):
				if in.ALU == ir.SDiv {
					in.ALU = ir.UDiv
				} else {
					in.ALU = ir.UMod
				}
				if in.B.IsImm && in.B.Imm > 0 && in.B.Imm&(in.B.Imm-1) == 0 {
					// By a power of two, a shift or a mask: the verifier
					// bounds neither quotient nor remainder of a division
					// (twfw.c indexes an array with seqnum / 64).
					if in.ALU == ir.UDiv {
						in.ALU, in.B = ir.Rsh, ir.Imm(int64(bits.TrailingZeros64(uint64(in.B.Imm))))
					} else {
						in.ALU, in.B = ir.And, ir.Imm(in.B.Imm-1)
					}
				}
				out = append(out, in)
			case in.Op == ir.OpALU && in.ALU == ir.SMod && zeroTested[in.Dst] && remainderMask(in):
				out = append(out, in)
			case in.Op == ir.OpALU && (in.ALU == ir.SDiv || in.ALU == ir.SMod) && c.cpu < 4:
				if seq, ok := sdivPow2(f, in); ok {
					out = append(out, seq...)
				} else {
					out = append(out, expandSDiv(f, in)...)
				}
			case in.Op == ir.OpBranch && in.W32 && c.cpu < 3:
				if w == nil {
					w = valueWidths(f)
				}
				if low == nil {
					low = lowHalfOnly(f)
				}
				if later == nil {
					later = newLaterExts(f)
				}
				out = append(out, widenBranch(f, b, in, w, low, later)...)
			default:
				out = append(out, in)
			}
		}
		b.Instrs = out
	}
	later.dropTaken()
}

// builder emits instructions, folding those whose operands are constants.
type builder struct {
	f   *ir.Func
	out []*ir.Instr
	pos ir.Pos
	w32 bool
	// made are the registers the builder's own 32-bit operations set:
	// their upper halves are zero, so a 32-bit identity on them is one.
	made map[ir.Reg]bool
}

func (b *builder) alu(op ir.ALU, x, y ir.Operand) ir.Operand {
	if x.IsImm && y.IsImm && !((op == ir.UDiv || op == ir.UMod) && y.Imm == 0) {
		return ir.Imm(ir.EvalALU(op, b.w32, x.Imm, y.Imm))
	}
	if y.IsImm && (!b.w32 || !x.IsImm) {
		in := &ir.Instr{Op: ir.OpALU, ALU: op, W32: b.w32, A: x, B: y}
		foldInstr(in)
		if in.Op == ir.OpMov && (!b.w32 || in.A.IsImm) {
			return in.A // an identity such as x ^ 0 (a 32-bit one only when it yields a constant)
		}
		if in.Op == ir.OpExt && !in.A.IsImm && b.made[in.A.Reg] {
			return in.A // a 32-bit identity on a value whose upper half is zero
		}
		if in.Op == ir.OpALU {
			op, y = in.ALU, in.B // strength-reduced
		}
	}
	d := b.f.NewReg()
	b.out = append(b.out, &ir.Instr{Op: ir.OpALU, ALU: op, W32: b.w32, Dst: d, A: x, B: y, Pos: b.pos})
	if b.w32 {
		if b.made == nil {
			b.made = map[ir.Reg]bool{}
		}
		b.made[d] = true
	}
	return ir.R(d)
}

// expandSDiv computes a signed quotient or remainder (C semantics: the
// quotient truncates toward zero, the remainder has the dividend's sign)
// with unsigned division on magnitudes, branch-free:
//
//	sa = a >>s N; sb = b >>s N           (0 or -1)
//	ua = (a^sa)-sa; ub = (b^sb)-sb       (|a|, |b|)
//	q = ((ua/ub) ^ (sa^sb)) - (sa^sb)
//	r = ((ua%ub) ^ sa) - sa
//
// Division by zero gives 0 and modulo by zero the dividend, as v4's sdiv and
// smod do.
func expandSDiv(f *ir.Func, in *ir.Instr) []*ir.Instr {
	b := &builder{f: f, pos: in.Pos, w32: in.W32}
	shift := ir.Imm(63)
	if in.W32 {
		shift = ir.Imm(31)
	}
	sa := b.alu(ir.Arsh, in.A, shift)
	sb := b.alu(ir.Arsh, in.B, shift)
	ua := b.alu(ir.Sub, b.alu(ir.Xor, in.A, sa), sa)
	ub := b.alu(ir.Sub, b.alu(ir.Xor, in.B, sb), sb)
	var res ir.Operand
	if in.ALU == ir.SDiv {
		q := b.alu(ir.UDiv, ua, ub)
		s := b.alu(ir.Xor, sa, sb)
		res = b.alu(ir.Sub, b.alu(ir.Xor, q, s), s)
	} else {
		r := b.alu(ir.UMod, ua, ub)
		res = b.alu(ir.Sub, b.alu(ir.Xor, r, sa), sa)
	}
	// Write the result into the original destination.
	if n := len(b.out); n > 0 && !res.IsImm && b.out[n-1].Dst == res.Reg {
		b.out[n-1].Dst = in.Dst
	} else {
		b.out = append(b.out, &ir.Instr{Op: ir.OpMov, Dst: in.Dst, A: res, Pos: in.Pos})
	}
	if len(b.out) > 0 && in.Note != "" {
		b.out[0].Note = in.Note
	}
	return b.out
}

// widenBranch extends both operands of a 32-bit comparison to 64 bits
// (sign-extending for signed conditions) for CPUs without JMP32.
func widenBranch(f *ir.Func, b *ir.Block, in *ir.Instr, w widths, low map[ir.Reg]bool, later *laterExts) []*ir.Instr {
	signed := in.Cond == ir.Sgt || in.Cond == ir.Sge || in.Cond == ir.Slt || in.Cond == ir.Sle
	var out []*ir.Instr
	widen := func(o ir.Operand) ir.Operand {
		if o.IsImm {
			return ir.Imm(ir.EvalExt(o.Imm, 32, signed))
		}
		if w.of(o) <= 31 || !signed && w.of(o) <= 32 {
			// In [0, 2^31), or in [0, 2^32) for a zero extension (a u32
			// loaded): the extension of its low half is the register
			// itself, which the comparison then bounds for the
			// verifier, as clang's does (tracee's u16 offset, an int
			// compare at -mcpu=v2: a sign-extended copy was bounded,
			// the register indexing the buffer was not).
			return o
		}
		if low[o.Reg] {
			// Nothing reads its upper half: extend it in place, as
			// clang does (r <<= 32; r >>= 32), so that the bound the
			// comparison gives is the register's, which a helper is
			// then given (tracee's `uint len = (uint)x; if (len <= 64)
			// bpf_probe_read(buf, len, ...)` at -mcpu=v2: the bound was
			// on a copy).
			out = append(out, &ir.Instr{Op: ir.OpExt, Dst: o.Reg, A: o, Bits: 32, Signed: signed, Pos: in.Pos})
			return o
		}
		if ext := later.take(o.Reg, signed, b); ext != nil {
			// The same extension after the branch (a u32 index that
			// was compared: parca-agent's binary search at -mcpu=v1)
			// is made before it, so that the register the comparison
			// bounds is the one the access uses, as clang's is; a copy
			// of its own left the access unbounded.
			out = append(out, &ir.Instr{Op: ir.OpExt, Dst: ext.Dst, A: o, Bits: 32, Signed: signed, Pos: in.Pos})
			return ir.R(ext.Dst)
		}
		d := f.NewReg()
		out = append(out, &ir.Instr{Op: ir.OpExt, Dst: d, A: o, Bits: 32, Signed: signed, Pos: in.Pos})
		return ir.R(d)
	}
	nb := *in
	nb.A, nb.B, nb.W32 = widen(in.A), widen(in.B), false
	if len(out) > 0 && in.Note != "" {
		out[0].Note, nb.Note = in.Note, ""
	}
	return append(out, &nb)
}

// laterExts finds, for a 32-bit branch widened below v3, the same
// extension from 32 bits of the compared register, or of a copy of it,
// in a successor only the branch reaches, for the branch to make instead.
// Its result must not be read or written in that block before it, nor be
// live into the branch's other successors, which the moved definition
// reaches too. Registers may be defined more than once (unrolled copies).
type laterExts struct {
	f     *ir.Func
	preds []int
	live  *regalloc.BlockLive
	regs  ir.Reg // registers when live was computed
	taken map[*ir.Instr]bool
}

func newLaterExts(f *ir.Func) *laterExts {
	renumber(f)
	l := &laterExts{f: f, preds: make([]int, len(f.Blocks)), taken: map[*ir.Instr]bool{}}
	for _, b := range f.Blocks {
		for _, s := range b.Succs() {
			l.preds[s.ID]++
		}
	}
	return l
}

// take returns such an extension of r after the branch ending b, and
// removes it from where it is (dropTaken).
func (l *laterExts) take(r ir.Reg, signed bool, b *ir.Block) *ir.Instr {
	if l == nil || b.ID >= len(l.preds) || l.f.Blocks[b.ID] != b {
		return nil
	}
	// The registers holding r's value at the branch: copies made in b
	// after r's last definition there.
	atBranch := map[ir.Reg]bool{r: true}
	for _, in := range b.Instrs {
		switch d := in.Dst; {
		case d == r:
			clear(atBranch)
			atBranch[r] = true
		case d != 0:
			copied := in.Op == ir.OpMov && !in.A.IsImm && atBranch[in.A.Reg]
			delete(atBranch, d)
			if copied {
				atBranch[d] = true
			}
		}
	}
	succs := b.Succs()
	for _, s := range succs {
		if l.preds[s.ID] != 1 {
			continue
		}
		same := maps.Clone(atBranch) // registers holding r's value
		touched := map[ir.Reg]bool{} // registers read or written so far
		for _, in := range s.Instrs {
			if in.Op == ir.OpExt && in.Bits == 32 && in.Signed == signed && !in.A.IsImm && same[in.A.Reg] &&
				!touched[in.Dst] && l.deadElsewhere(in.Dst, succs, s) {
				l.taken[in] = true
				return in
			}
			forEachUse(in, func(o *ir.Operand) { touched[o.Reg] = true })
			if d := in.Dst; d != 0 {
				touched[d] = true
				copied := in.Op == ir.OpMov && !in.A.IsImm && same[in.A.Reg]
				delete(same, d)
				if copied {
					same[d] = true
				}
				if len(same) == 0 {
					break
				}
			}
		}
	}
	return nil
}

// deadElsewhere reports whether d is live into none of succs but s.
func (l *laterExts) deadElsewhere(d ir.Reg, succs []*ir.Block, s *ir.Block) bool {
	if l.live == nil {
		l.live, l.regs = liveness(l.f), l.f.NextReg
	}
	if d >= l.regs {
		// Made by legalize after the sets were: its temporaries live
		// within a block (retina's packetparser at -mcpu=v1 read the
		// sets out of range: an internal error).
		return true
	}
	for _, o := range succs {
		if o != s && l.live.LiveIn(o.ID, int(d)) {
			return false
		}
	}
	return true
}

// dropTaken deletes the extensions take moved before a branch.
func (l *laterExts) dropTaken() {
	if l == nil || len(l.taken) == 0 {
		return
	}
	for _, b := range l.f.Blocks {
		b.Instrs = slices.DeleteFunc(b.Instrs, func(in *ir.Instr) bool { return l.taken[in] })
	}
}

// lowHalfOnly returns the registers a helper is given (a size) every read
// of which reads only the low 32 bits: 32-bit operations and comparisons,
// extensions from 32 bits or fewer, stores of 4 bytes or fewer. Their
// upper halves can be anything (a u32 truncation of a 64-bit load, an int
// difference).
func lowHalfOnly(f *ir.Func) map[ir.Reg]bool {
	low := map[ir.Reg]bool{}
	wide := map[ir.Reg]bool{}
	for _, p := range f.Params {
		wide[p] = true // its caller's value, read by nothing we see
	}
	copies := map[ir.Reg][]ir.Reg{} // r -> the registers copied from it
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			narrow := false
			switch in.Op {
			case ir.OpALU, ir.OpBranch, ir.OpNeg:
				narrow = in.W32
			case ir.OpExt:
				narrow = in.Bits <= 32
			case ir.OpMov:
				if !in.A.IsImm {
					low[in.A.Reg] = true
					copies[in.A.Reg] = append(copies[in.A.Reg], in.Dst)
					continue
				}
			}
			forEachUse(in, func(o *ir.Operand) {
				switch {
				case narrow:
					low[o.Reg] = true
				case in.Op == ir.OpStore && in.Size <= 4 && !in.B.IsImm && o == &in.B && (in.Slot != nil || in.A.IsImm || in.A.Reg != o.Reg):
					low[o.Reg] = true
				default:
					wide[o.Reg] = true
				}
			})
		}
	}
	// A copy is read as its copies are.
	for changed := true; changed; {
		changed = false
		for r, ds := range copies {
			if wide[r] {
				continue
			}
			for _, d := range ds {
				if wide[d] || !low[d] && len(copies[d]) == 0 {
					wide[r], changed = true, true
					break
				}
			}
		}
	}
	for r := range wide {
		delete(low, r)
	}
	// Only values a helper is given, through copies and extensions: a
	// bound kept on a count subtracted from an offset (an unrolled path
	// walk's name lengths) would make each count a verifier state of its
	// own, as -mcpu=v3's 32-bit jumps do (path_walk_order: 2,443 -> 40,449
	// verified at v1).
	given := map[ir.Reg]bool{}
	from := map[ir.Reg][]ir.Reg{} // d -> the registers d is a copy or extension of
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			switch {
			case in.Op == ir.OpCall:
				for _, a := range in.Args {
					if !a.IsImm {
						given[a.Reg] = true
					}
				}
			case (in.Op == ir.OpMov || in.Op == ir.OpExt) && !in.A.IsImm:
				from[in.Dst] = append(from[in.Dst], in.A.Reg)
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for d, rs := range from {
			if !given[d] {
				continue
			}
			for _, r := range rs {
				if !given[r] {
					given[r], changed = true, true
				}
			}
		}
	}
	for r := range low {
		if !given[r] {
			delete(low, r)
		}
	}
	return low
}

// sdivPow2 expands a signed division or remainder by a constant ±2^k the
// way clang does, rounding the dividend toward zero by adding 2^k-1 when it
// is negative (bias = (a >>s N-1) >> N-k):
//
//	q = (a + bias) >>s k             (a / 2^k)
//	r = a - ((a + bias) & -2^k)      (a % 2^k, also a % -2^k)
//
// A quotient by a negative divisor is left to expandSDiv.
func sdivPow2(f *ir.Func, in *ir.Instr) ([]*ir.Instr, bool) {
	if in.A.IsImm || !in.B.IsImm {
		return nil, false
	}
	n, d := 64, in.B.Imm
	if in.W32 {
		n, d = 32, int64(int32(d))
	}
	mag := d
	if d < 0 && in.ALU == ir.SMod {
		mag = -d // may overflow to the minimum, which log2 reads as 2^(n-1)
		if in.W32 {
			mag = int64(uint32(mag))
		}
	}
	k, ok := log2(mag)
	if !ok || k < 1 || k > n-1 || (d < 0 && in.ALU == ir.SDiv) {
		return nil, false
	}
	b := &builder{f: f, pos: in.Pos, w32: in.W32}
	sign := b.alu(ir.Arsh, in.A, ir.Imm(int64(n-1)))
	bias := b.alu(ir.Rsh, sign, ir.Imm(int64(n-k)))
	t := b.alu(ir.Add, bias, in.A)
	var res ir.Operand
	if in.ALU == ir.SDiv {
		res = b.alu(ir.Arsh, t, ir.Imm(int64(k)))
	} else {
		m := b.alu(ir.And, t, ir.Imm(-int64(1)<<k))
		res = b.alu(ir.Sub, in.A, m)
	}
	if n := len(b.out); n > 0 && !res.IsImm && b.out[n-1].Dst == res.Reg {
		b.out[n-1].Dst = in.Dst
	} else {
		b.out = append(b.out, &ir.Instr{Op: ir.OpMov, Dst: in.Dst, A: res, Pos: in.Pos})
	}
	if in.Note != "" {
		b.out[0].Note = in.Note
	}
	return b.out, true
}

// zeroTestedOnly returns the registers whose every use is a comparison with
// 0 for (in)equality: only whether their value is zero matters.
func zeroTestedOnly(f *ir.Func) map[ir.Reg]bool {
	ok := map[ir.Reg]bool{}
	bad := map[ir.Reg]bool{}
	for _, p := range f.Params {
		bad[p] = true
	}
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			imm := in.B
			if in.A.IsImm {
				imm = in.A
			}
			zeroTest := in.Op == ir.OpBranch && (in.Cond == ir.Eq || in.Cond == ir.Ne) &&
				in.A.IsImm != in.B.IsImm && imm.Imm == 0
			forEachUse(in, func(o *ir.Operand) {
				if zeroTest {
					ok[o.Reg] = true
				} else {
					bad[o.Reg] = true
				}
			})
		}
	}
	for r := range bad {
		delete(ok, r)
	}
	return ok
}

// remainderMask rewrites "a % ±2^k", k ≤ 31, whose result is only tested
// against zero into "a & (2^k-1)": the remainder is zero exactly when the
// low k bits are, whatever the sign. It reports whether it did.
func remainderMask(in *ir.Instr) bool {
	if in.A.IsImm || !in.B.IsImm {
		return false
	}
	d := in.B.Imm
	if in.W32 {
		d = int64(int32(d))
	}
	if d < 0 {
		d = -d
	}
	k, ok := log2(d)
	if !ok || k > 31 || (in.W32 && k > 30) {
		return false
	}
	in.ALU, in.B = ir.And, ir.Imm(int64(1)<<k-1)
	return true
}
