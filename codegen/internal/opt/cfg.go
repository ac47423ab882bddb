package opt

import (
	"slices"

	"github.com/bpfcc/bpfcc/ir"
)

// ensureEntry gives f an entry block that no branch targets, so that the
// parameter set-up at its top runs once.
func ensureEntry(f *ir.Func, _ *passCtx) {
	if len(f.Blocks) == 0 {
		return
	}
	entry := f.Blocks[0]
	if predecessors(f)[entry] == 0 {
		return
	}
	nb := &ir.Block{Instrs: []*ir.Instr{{Op: ir.OpJump, Then: entry, Pos: f.Pos}}}
	f.Blocks = append([]*ir.Block{nb}, f.Blocks...)
	renumber(f)
}

// removeUnreachable drops blocks that cannot be reached from the entry (the
// verifier rejects unreachable instructions).
func removeUnreachable(f *ir.Func, _ *passCtx) {
	if len(f.Blocks) == 0 {
		return
	}
	seen := map[*ir.Block]bool{f.Blocks[0]: true}
	work := []*ir.Block{f.Blocks[0]}
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		for _, s := range b.Succs() {
			if !seen[s] {
				seen[s] = true
				work = append(work, s)
			}
		}
	}
	kept := f.Blocks[:0]
	for _, b := range f.Blocks {
		if seen[b] {
			kept = append(kept, b)
		}
	}
	f.Blocks = kept
	renumber(f)
}

// sameReturns points both ways of a branch at one target when each way
// returns the same constant with no effect on the way: `if (memcmp(a, b,
// n)) return 1; return 1;` then reads nothing. What the ways computed is
// dead, as nothing runs after the return.
func sameReturns(f *ir.Func) {
	const unknown, busy, none = -1, -2, -3
	memo := make([]int64, len(f.Blocks))
	val := make([]int64, len(f.Blocks))
	for i := range memo {
		memo[i] = unknown
	}
	renumber(f)
	// returns reports the constant b returns, if it returns one without
	// an effect; cycles and effects answer none.
	var returns func(b *ir.Block) (int64, bool)
	returns = func(b *ir.Block) (int64, bool) {
		switch memo[b.ID] {
		case busy, none:
			return 0, false
		case unknown:
		default:
			return val[b.ID], true
		}
		memo[b.ID] = busy
		v, ok := int64(0), true
		for _, in := range b.Instrs[:len(b.Instrs)-1] {
			if !pure(in) || in.Volatile {
				ok = false
				break
			}
		}
		t := b.Term()
		switch {
		case !ok || t == nil:
			ok = false
		case t.Op == ir.OpRet:
			v, ok = t.A.Imm, t.A.IsImm
		case t.Op == ir.OpJump:
			v, ok = returns(t.Then)
		case t.Op == ir.OpBranch:
			var w int64
			var ok2 bool
			v, ok = returns(t.Then)
			if ok {
				w, ok2 = returns(t.Else)
				ok = ok2 && w == v
			}
		}
		if !ok {
			memo[b.ID] = none
			return 0, false
		}
		memo[b.ID], val[b.ID] = 0, v
		return v, true
	}
	for _, b := range f.Blocks {
		if t := b.Term(); t != nil && t.Op == ir.OpBranch && t.Then != t.Else {
			if _, ok := returns(b); ok {
				t.Else = t.Then
			}
		}
	}
}

// threadConstBranches sends a jump to a block that only moves registers
// and branches straight to the branch's target when the jumping block set
// the tested register to a constant (the moves are copied into it): `res
// = a == b; if (res) ...` lowered as two moves that meet at the test then
// tests nothing at run time.
func threadConstBranches(f *ir.Func) bool {
	changed := false
	for _, p := range f.Blocks {
		t := p.Term()
		if t == nil || t.Op != ir.OpJump {
			continue
		}
		b := t.Then
		n := len(b.Instrs)
		if b == p || n == 0 || n > 3 || b.Instrs[n-1].Op != ir.OpBranch || b.Instrs[n-1].Note != "" {
			continue
		}
		moves := b.Instrs[:n-1]
		if slices.ContainsFunc(moves, func(in *ir.Instr) bool { return in.Op != ir.OpMov }) {
			continue
		}
		br := b.Instrs[n-1]
		a, ok1 := constAfter(p, moves, br.A)
		c, ok2 := constAfter(p, moves, br.B)
		if !ok1 || !ok2 {
			continue
		}
		to := br.Else
		if ir.EvalCond(br.Cond, br.W32, a, c) {
			to = br.Then
		}
		if to == b {
			continue
		}
		body := p.Instrs[:len(p.Instrs)-1]
		for _, in := range moves {
			c := *in
			body = append(body, &c)
		}
		p.Instrs = append(body, t)
		t.Then, changed = to, true
	}
	return changed
}

// constAfter returns o's value after block p and then moves, when they
// set it to a constant (or o is one).
func constAfter(p *ir.Block, moves []*ir.Instr, o ir.Operand) (int64, bool) {
	for i := len(moves) - 1; i >= 0 && !o.IsImm; i-- {
		if moves[i].Dst == o.Reg {
			o = moves[i].A
		}
	}
	if o.IsImm {
		return o.Imm, true
	}
	for i := len(p.Instrs) - 1; i >= 0; i-- {
		in := p.Instrs[i]
		if in.Dst != o.Reg {
			continue
		}
		if in.Op == ir.OpMov && in.A.IsImm {
			return in.A.Imm, true
		}
		return 0, false
	}
	return 0, false
}

// simplifyCFG turns branches with equal targets into jumps, threads jumps
// through blocks that only jump, and merges a block into its only
// predecessor when that predecessor jumps to it.
func simplifyCFG(f *ir.Func, c *passCtx) {
	for changed := true; changed; {
		changed = false
		sameReturns(f)
		if threadConstBranches(f) {
			changed = true
		}
		if threadDecidedBranches(f) {
			changed = true
		}
		if decideConstBranches(f) {
			changed = true
		}
		if foldComparedArms(f) {
			changed = true
		}
		if decideJoinBranches(f) {
			changed = true
		}
		for _, b := range f.Blocks {
			t := b.Term()
			if t != nil && t.Op == ir.OpBranch && t.Then == t.Else {
				*t = ir.Instr{Op: ir.OpJump, Then: t.Then, Pos: t.Pos, Note: t.Note}
				changed = true
			}
		}
		entry := f.Blocks[0]
		forward := func(b *ir.Block) *ir.Block {
			for steps := 0; steps < len(f.Blocks); steps++ {
				if b == entry || len(b.Instrs) != 1 || b.Instrs[0].Op != ir.OpJump || b.Instrs[0].Note != "" || b.Instrs[0].Then == b {
					return b
				}
				b = b.Instrs[0].Then
			}
			return b
		}
		for _, b := range f.Blocks {
			t := b.Term()
			if t == nil {
				continue
			}
			if t.Then != nil {
				if n := forward(t.Then); n != t.Then {
					t.Then, changed = n, true
				}
			}
			if t.Else != nil {
				if n := forward(t.Else); n != t.Else {
					t.Else, changed = n, true
				}
			}
		}
		preds := predecessors(f)
		for _, b := range f.Blocks {
			t := b.Term()
			if t == nil || t.Op != ir.OpJump {
				continue
			}
			s := t.Then
			if s == b || s == entry || preds[s] != 1 || len(s.Instrs) == 0 {
				continue
			}
			if t.Note != "" && s.Instrs[0].Note == "" {
				s.Instrs[0].Note = t.Note
			}
			b.Instrs = append(b.Instrs[:len(b.Instrs)-1], s.Instrs...)
			s.Instrs = []*ir.Instr{{Op: ir.OpJump, Then: s}} // now unreachable
			preds[s] = 0
			changed = true
		}
		removeUnreachable(f, c)
	}
}

// decideConstBranches turns a branch whose operands are constants into a
// jump, a register counting as its constant when a constant move is its only
// definition. Passes after foldConstants leave such registers: when a
// threaded path drops the other definitions of a flag (`off = 0; if (vlan)
// off = 14; ... if (!off)`, the vlan path threaded past the test), its one
// `mov 0` is left, and the test with it.
func decideConstBranches(f *ir.Func) bool {
	consts := singleDefConsts(f, defCounts(f))
	value := func(o ir.Operand) (int64, bool) {
		if o.IsImm {
			return o.Imm, true
		}
		v, ok := consts[o.Reg]
		return v, ok
	}
	changed := false
	for _, b := range f.Blocks {
		t := b.Term()
		if t == nil || t.Op != ir.OpBranch || t.Then == t.Else || t.Unroll != 0 {
			continue
		}
		x, okA := value(t.A)
		y, okB := value(t.B)
		if !okA || !okB {
			continue
		}
		decideBranch(t, x, y)
		changed = true
	}
	return changed
}

// decideBranches is decideConstBranches after the last threading and
// dead-code elimination, which leave a flag with one constant definition
// (see there), and decideByWidths, then drops what the decided branches
// made unreachable or dead.
func decideBranches(f *ir.Func, c *passCtx) {
	flagComparedConstants(f)
	if decided := decideByWidths(f); decideConstBranches(f) || decided {
		removeUnreachable(f, c)
		eliminateDeadCode(f, c)
	}
}

// threadDecidedBranches sends an edge of a branch straight on when it
// enters a block that only copies registers and branches again, and that
// second test is decided on the edge: by constants the first block set, or
// by the first test itself when both compare the same values (the result
// of `a || b` tested once more after the chain, an inlined `return delta`
// then `if (delta)`; `if (x == 3) ... if (x != 3)` with nothing between).
// (threadConstBranches does the constant case for a jump, whose copies can
// stay in the jumping block.)
// The copies move to a block of their own on the threaded edge. The
// verifier then walks one test instead of two on that path.
func threadDecidedBranches(f *ir.Func) bool {
	changed, added := false, false
	for _, p := range f.Blocks {
		t := p.Term()
		if t == nil || t.Op != ir.OpBranch || t.Then == t.Else {
			continue
		}
		for _, edge := range []**ir.Block{&t.Then, &t.Else} {
			s := *edge
			n := len(s.Instrs)
			if s == p || n == 0 || n > 4 {
				continue
			}
			b, moves := s.Instrs[n-1], s.Instrs[:n-1]
			if b.Op != ir.OpBranch || b.Note != "" || b.Unroll != 0 ||
				slices.ContainsFunc(moves, func(in *ir.Instr) bool { return in.Op != ir.OpMov }) {
				continue
			}
			taken, ok := false, false
			if b.W32 == t.W32 {
				q := *b
				q.A, q.B = valueBefore(p, moves, b.A), valueBefore(p, moves, b.B)
				taken, ok = impliedBranch(t, edge == &t.Then, &q)
			}
			if !ok {
				// Or p set what it tests to constants: `ip = NULL; if
				// (short) goto out; ip = data + 14; out: if (!ip)`.
				x, okA := constAfter(p, moves, b.A)
				y, okB := constAfter(p, moves, b.B)
				if !okA || !okB {
					continue
				}
				taken = ir.EvalCond(b.Cond, b.W32, x, y)
			}
			to := b.Else
			if taken {
				to = b.Then
			}
			if to == s {
				continue
			}
			if len(moves) > 0 {
				nb := &ir.Block{}
				for _, in := range moves {
					c := *in
					nb.Instrs = append(nb.Instrs, &c)
				}
				nb.Instrs = append(nb.Instrs, &ir.Instr{Op: ir.OpJump, Then: to, Pos: b.Pos})
				f.Blocks = append(f.Blocks, nb)
				to, added = nb, true
			}
			*edge, changed = to, true
		}
	}
	if added {
		renumber(f)
	}
	return changed
}

// valueBefore names o, read after block p and then moves, by the register
// p's last instructions copied into it (or the constant), so that two
// copies of one value compare equal.
func valueBefore(p *ir.Block, moves []*ir.Instr, o ir.Operand) ir.Operand {
	for i := len(moves) - 1; i >= 0 && !o.IsImm; i-- {
		if moves[i].Dst == o.Reg {
			o = moves[i].A
		}
	}
	body := p.Instrs[:len(p.Instrs)-1]
	for i := len(body) - 1; i >= 0 && !o.IsImm; i-- {
		in := body[i]
		if in.Dst != o.Reg {
			continue
		}
		if in.Op != ir.OpMov {
			break
		}
		// The source must hold the same value at p's end.
		src := in.A
		if !src.IsImm && slices.ContainsFunc(body[i+1:], func(x *ir.Instr) bool { return x.Dst == src.Reg }) {
			break
		}
		o = src
	}
	return o
}

// Comparison outcomes of two values: equal, or each of signed and
// unsigned order (they differ when the sign bits do).
const (
	outEq = 1 << iota
	outSltUlt
	outSltUgt
	outSgtUlt
	outSgtUgt
	outAll = 1<<iota - 1
)

// condOutcomes gives the outcomes for which c holds; ok is false for Set.
func condOutcomes(c ir.Cond) (int, bool) {
	const ult, ugt, slt, sgt = outSltUlt | outSgtUlt, outSltUgt | outSgtUgt, outSltUlt | outSltUgt, outSgtUlt | outSgtUgt
	switch c {
	case ir.Eq:
		return outEq, true
	case ir.Ne:
		return outAll &^ outEq, true
	case ir.Ult:
		return ult, true
	case ir.Ule:
		return ult | outEq, true
	case ir.Ugt:
		return ugt, true
	case ir.Uge:
		return ugt | outEq, true
	case ir.Slt:
		return slt, true
	case ir.Sle:
		return slt | outEq, true
	case ir.Sgt:
		return sgt, true
	case ir.Sge:
		return sgt | outEq, true
	}
	return 0, false
}

// impliedBranch decides branch q from branch fact, known to have gone the
// way held says, when both compare the same operands (in either order),
// or fact found its register equal to a constant q compares with another.
func impliedBranch(fact *ir.Instr, held bool, q *ir.Instr) (taken, ok bool) {
	qc := q.Cond
	switch {
	case fact.A == q.A && fact.B == q.B:
	case fact.A == q.B && fact.B == q.A:
		qc = qc.Mirror()
	case fact.B.IsImm && q.B.IsImm && fact.A == q.A && !fact.A.IsImm:
		// x == c1 decides x <cond> c2.
		if (fact.Cond == ir.Eq) == held && (fact.Cond == ir.Eq || fact.Cond == ir.Ne) {
			return ir.EvalCond(qc, q.W32, fact.B.Imm, q.B.Imm), true
		}
		return false, false
	default:
		return false, false
	}
	if fact.Cond == ir.Set || qc == ir.Set {
		if fact.Cond == qc {
			return held, true
		}
		return false, false
	}
	fs, _ := condOutcomes(fact.Cond)
	if !held {
		fs = outAll &^ fs
	}
	qs, _ := condOutcomes(qc)
	switch {
	case fs&^qs == 0:
		return true, true
	case fs&qs == 0:
		return false, true
	}
	return false, false
}
