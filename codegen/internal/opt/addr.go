package opt

import (
	"maps"
	"math"
	"slices"

	"github.com/bpfcc/bpfcc/ir"
)

// foldAddresses moves a constant added to a pointer into the offset of the
// loads and stores that use the sum, within a block: r = p + C; *(r + off)
// becomes *(p + C+off) while neither r nor p is redefined in between. The
// verifier rejects a context pointer changed by arithmetic before a
// dereference (skb->cb[i] with i known only after unrolling), and the form
// saves an instruction anywhere.
//
// Across blocks it folds sums whose register and base are each defined
// once (a parameter counts as its one definition): the base then holds the
// same value wherever the sum is used. `u8 *b = (u8 *)&sk->dst_port;
// return b[0] == 0xca && b[1] == 0xfe;` so reads sk+48 and sk+49, where
// b+1 would be arithmetic on a sock_common pointer, which the verifier
// refuses.
func foldAddresses(f *ir.Func, _ *passCtx) {
	splitConstIndexes(f)
	defs := defCounts(f)
	global := map[ir.Reg]sum{}
	for _, b := range f.Blocks {
		for i := 0; i < len(b.Instrs); i++ {
			in := b.Instrs[i]
			d := in.Dst
			if d == 0 || defs[d] != 1 || in.A.IsImm || in.A.Reg == d {
				continue
			}
			add := in.Op == ir.OpALU && in.ALU == ir.Add && !in.W32 && in.B.IsImm
			if !add && in.Op != ir.OpMov {
				continue
			}
			base := in.A.Reg
			if defs[base] != 1 {
				if !add {
					continue
				}
				// The base is assigned elsewhere too (`sk` reused for
				// another socket): fold against a copy of it taken
				// here, which holds its value wherever the sum is used.
				// dce2 drops the copy when nothing folds.
				base = f.NewReg()
				defs[base] = 1
				b.Instrs = slices.Insert(b.Instrs, i, &ir.Instr{Op: ir.OpMov, Dst: base, A: in.A, Pos: in.Pos})
				i++
			}
			if add {
				global[d] = sum{base, in.B.Imm}
			} else {
				global[d] = sum{base, 0}
			}
		}
	}
	// step updates sums, the sums registers hold, past in. A sum is
	// composed when it is made (r = q + 8 with q = p + 4 is p + 12), so
	// it stays true while its base keeps its value. Only the registers
	// an access's address is made from are tracked (the maps are copied
	// at every block), and a definition looks for the sums based on it
	// only if some sum ever was.
	relevant := addressRegs(f)
	isBase := make([]bool, f.NextReg)
	step := func(sums map[ir.Reg]sum, in *ir.Instr) {
		d := in.Dst
		if d == 0 {
			return
		}
		var s sum
		made := true
		switch {
		case in.Op == ir.OpALU && in.ALU == ir.Add && !in.W32 && !in.A.IsImm && in.B.IsImm:
			s = sum{in.A.Reg, in.B.Imm}
		case in.Op == ir.OpMov && !in.A.IsImm:
			s = sum{in.A.Reg, 0}
		default:
			made = false
		}
		if t, ok := sums[s.base]; made && ok {
			s = sum{t.base, t.c + s.c} // also r = r + 8, from r's sum before
		} else if t, ok := global[s.base]; made && ok {
			s = sum{t.base, t.c + s.c}
		}
		delete(sums, d)
		if isBase[d] {
			for r, s := range sums {
				if s.base == d {
					delete(sums, r)
				}
			}
		}
		if made && s.base != d && defs[d] > 1 && relevant[d] { // the others are global's
			sums[d] = s
			isBase[s.base] = true
		}
	}
	entry := reachingSums(f, step)
	for i, b := range f.Blocks {
		sums := maps.Clone(entry[i])
		if sums == nil {
			sums = map[ir.Reg]sum{}
		}
		for _, in := range b.Instrs {
			switch in.Op {
			case ir.OpLoad, ir.OpStore, ir.OpAtomic:
				for in.Slot == nil && !in.A.IsImm && in.Core == nil {
					s, ok := sums[in.A.Reg]
					if !ok {
						s, ok = global[in.A.Reg]
					}
					if !ok || !fitsInt16(in.Off+s.c) {
						break
					}
					in.A, in.Off = ir.R(s.base), in.Off+s.c
				}
			}
			step(sums, in)
		}
	}
}

// addressRegs returns, by register, whether an access's address is made
// from it: the address registers of loads, stores and atomics, and the
// operands of the 64-bit adds of a constant and the copies that define
// one of those.
func addressRegs(f *ir.Func) []bool {
	from := make([][]ir.Reg, f.NextReg) // a register's defining operands
	var work []ir.Reg
	relevant := make([]bool, f.NextReg)
	mark := func(r ir.Reg) {
		if !relevant[r] {
			relevant[r] = true
			work = append(work, r)
		}
	}
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			switch {
			case in.A.IsImm:
			case in.Op == ir.OpLoad || in.Op == ir.OpStore || in.Op == ir.OpAtomic:
				if in.Slot == nil && in.Core == nil {
					mark(in.A.Reg)
				}
			case in.Dst != 0 && (in.Op == ir.OpMov || in.Op == ir.OpALU && in.ALU == ir.Add && !in.W32 && in.B.IsImm):
				from[in.Dst] = append(from[in.Dst], in.A.Reg)
			}
		}
	}
	for len(work) > 0 {
		r := work[len(work)-1]
		work = work[:len(work)-1]
		for _, a := range from[r] {
			mark(a)
		}
	}
	return relevant
}

// sum is a register's value as a base register plus a constant.
type sum struct {
	base ir.Reg
	c    int64
}

// reachingSums returns the sums (see foldAddresses) that hold at the start
// of each block of f on every path to it, with step the effect of an
// instruction: a pointer assigned in each of an unrolled loop's copies
// (tracee's buf = &event->args_buf, inlined into six copies) is still
// event + 144 in the blocks after its assignment, where only copies of one
// iteration reach. Blocks are visited until nothing changes; a sum holds
// at a join if it is the same on every incoming edge.
func reachingSums(f *ir.Func, step func(map[ir.Reg]sum, *ir.Instr)) []map[ir.Reg]sum {
	n := len(f.Blocks)
	if n < 2 {
		return make([]map[ir.Reg]sum, n)
	}
	renumber(f)
	preds := make([][]int, n)
	for _, b := range f.Blocks {
		for _, s := range b.Succs() {
			preds[s.ID] = append(preds[s.ID], b.ID)
		}
	}
	out := make([]map[ir.Reg]sum, n) // nil: not reached yet
	// meet is what holds at block i's start: the sums equal on every
	// edge reached so far; nil when none is.
	meet := func(i int) map[ir.Reg]sum {
		var m map[ir.Reg]sum
		if i == 0 {
			m = map[ir.Reg]sum{}
		}
		for _, p := range preds[i] {
			o := out[p]
			switch {
			case o == nil:
			case m == nil:
				m = maps.Clone(o)
			default:
				maps.DeleteFunc(m, func(r ir.Reg, s sum) bool { t, ok := o[r]; return !ok || t != s })
			}
		}
		return m
	}
	for rounds := 0; ; rounds++ {
		if rounds == 64 {
			// Not settled (the sets only shrink, so this is a bound on
			// time): nothing is known at any block's start.
			return make([]map[ir.Reg]sum, n)
		}
		changed := false
		for i, b := range f.Blocks {
			m := meet(i)
			if m == nil {
				continue
			}
			for _, ins := range b.Instrs {
				step(m, ins)
			}
			if out[i] == nil || !maps.Equal(out[i], m) {
				out[i], changed = m, true
			}
		}
		if !changed {
			break
		}
	}
	// What holds at each start, from the settled ends of its predecessors.
	in := make([]map[ir.Reg]sum, n)
	for i := range f.Blocks {
		in[i] = meet(i)
	}
	return in
}

// splitConstIndexes rewrites an access through r = X + (Z + C) (64-bit
// adds, C constant, r and Z+C defined once) as one through a new n = X + Z,
// placed after r, with C in the access's offset, as clang splits a GEP's
// constant index off. `buf[size - 1]` with size known to be in [0, N] is
// then buf + size, a pointer the verifier bounds, and -1 in the store's
// offset, where (size - 1) added to buf has an unsigned range up to
// 2^64-1: "R2 unbounded memory access" (elastic/ebpf's ebpf_env__fill).
// Z holds at r what it held at Z + C: it is defined once, or not between
// the two in their block. A constant added to r is added to n the same way.
func splitConstIndexes(f *ir.Func) {
	defs := defCounts(f)
	type site struct {
		b *ir.Block
		i int
	}
	def := map[ir.Reg]site{}
	for _, b := range f.Blocks {
		for i, in := range b.Instrs {
			if in.Dst != 0 && defs[in.Dst] == 1 {
				def[in.Dst] = site{b, i}
			}
		}
	}
	// reaching returns the definition of r that reaches at: the last
	// before it in its block (the copies of an unrolled loop each assign
	// r), or r's only one.
	reaching := func(r ir.Reg, at site) (site, bool) {
		if j := lastDefBefore(at.b, at.i, r); j >= 0 {
			return site{at.b, j}, true
		}
		d, ok := def[r]
		return d, ok
	}
	instrAt := func(s site) *ir.Instr { return s.b.Instrs[s.i] }
	// stable reports whether z holds at to what it held at from: defined
	// once, or not assigned between the two in one block.
	stable := func(z ir.Reg, from, to site) bool {
		if defs[z] == 1 {
			return true
		}
		if from.b != to.b || from.i > to.i {
			return false
		}
		for _, in := range to.b.Instrs[from.i+1 : to.i] {
			if in.Dst == z {
				return false
			}
		}
		return true
	}
	// constSum reads y, as it is at, as z + c, z holding at what it held
	// at y's definition.
	constSum := func(y ir.Reg, at site) (z ir.Reg, c int64, ok bool) {
		ys, ok := reaching(y, at)
		if !ok {
			return 0, 0, false
		}
		in := instrAt(ys)
		if in.Op != ir.OpALU || in.W32 || in.A.IsImm || !in.B.IsImm || in.A.Reg == y || !stable(in.A.Reg, ys, at) {
			return 0, 0, false
		}
		switch {
		case in.ALU == ir.Add:
			return in.A.Reg, in.B.Imm, true
		case in.ALU == ir.Sub && in.B.Imm != math.MinInt64:
			return in.A.Reg, -in.B.Imm, true
		}
		return 0, 0, false
	}
	type parts struct {
		x, z ir.Reg
		c    int64
	}
	// split reads r's definition at rs as x + z + c.
	split := func(r ir.Reg, rs site) (parts, bool) {
		in := instrAt(rs)
		if in.Op != ir.OpALU || in.ALU != ir.Add || in.W32 || in.A.IsImm || in.B.IsImm || in.A.Reg == r || in.B.Reg == r {
			return parts{}, false
		}
		for _, o := range [][2]ir.Reg{{in.A.Reg, in.B.Reg}, {in.B.Reg, in.A.Reg}} {
			if z, c, ok := constSum(o[1], rs); ok && z != r {
				return parts{o[0], z, c}, true
			}
		}
		return parts{}, false
	}
	made := map[*ir.Instr]sum{}         // r's definition, rewritten -> r = n + c
	before := map[*ir.Instr]*ir.Instr{} // r's definition -> the n to precede it
	for _, b := range f.Blocks {
		for i, in := range b.Instrs {
			// A constant added to r: n plus the two constants (loxilb's
			// `neh = nhl + (elen - 1); if (neh + 1 > dend)` compares
			// nhl + elen, the pointer its access then goes through).
			addConst := in.Op == ir.OpALU && in.ALU == ir.Add && !in.W32 && !in.A.IsImm && in.B.IsImm
			if !addConst && ((in.Op != ir.OpLoad && in.Op != ir.OpStore && in.Op != ir.OpAtomic) || in.Slot != nil || in.A.IsImm || in.Core != nil) {
				continue
			}
			// Through copies of it (r7 = mov r13): the check and the
			// access it guards then share one n (loxilb's nhl + 14 + v,
			// compared as + 15 and read at + 14: two sums, the one read
			// unchecked).
			r, rs, ok := in.A.Reg, site{}, false
			at := site{b, i}
			for range 8 {
				if rs, ok = reaching(r, at); !ok {
					break
				}
				d := instrAt(rs)
				if d.Op != ir.OpMov || d.A.IsImm || !stable(d.A.Reg, rs, at) {
					break
				}
				r, at = d.A.Reg, rs
			}
			if !ok {
				continue
			}
			d := instrAt(rs)
			n, c := made[d].base, made[d].c
			if n == 0 {
				p, ok := split(r, rs)
				if !ok || !addConst && !fitsInt16(in.Off+p.c) {
					continue
				}
				if defs[r] != 1 && p.c >= 0 {
					// In unrolled copies only p + (n - C), which the
					// verifier refuses as it is ("min value is
					// negative"): splitting a positive constant off
					// there made strobemeta's unrolled string reads
					// 1.23x the verifier's work.
					continue
				}
				// r itself becomes n + c, so that every use of it, the
				// check and the access alike, is n and a constant: the
				// verifier bounds n's accesses by a check of r (loxilb's
				// GTP walk compared a copy of nhl, assigned in each
				// unrolled copy, and read through n + 14: unchecked).
				n, c = f.NewReg(), p.c
				made[d] = sum{n, c}
				before[d] = &ir.Instr{Op: ir.OpALU, ALU: ir.Add, Dst: n, A: ir.R(p.x), B: ir.R(p.z), Pos: d.Pos}
				if c == 0 {
					*d = ir.Instr{Op: ir.OpMov, Dst: r, A: ir.R(n), Pos: d.Pos, Note: d.Note}
				} else {
					*d = ir.Instr{Op: ir.OpALU, ALU: ir.Add, Dst: r, A: ir.R(n), B: ir.Imm(c), Pos: d.Pos, Note: d.Note}
				}
			}
			// n holds here what it held at r's definition: it is
			// assigned only right before it, and r (or the copy read
			// here) is not assigned between.
			switch {
			case addConst && in.B.Imm+c == 0:
				*in = ir.Instr{Op: ir.OpMov, Dst: in.Dst, A: ir.R(n), Pos: in.Pos, Note: in.Note}
			case addConst:
				in.A, in.B = ir.R(n), ir.Imm(in.B.Imm+c)
			case fitsInt16(in.Off + c):
				in.A, in.Off = ir.R(n), in.Off+c
			}
		}
	}
	if len(before) == 0 {
		return
	}
	for _, b := range f.Blocks {
		out := make([]*ir.Instr, 0, len(b.Instrs))
		for _, in := range b.Instrs {
			if n := before[in]; n != nil {
				out = append(out, n)
			}
			out = append(out, in)
		}
		b.Instrs = out
	}
}
