package opt

import (
	"slices"

	"github.com/bpfcc/bpfcc/ir"
)

// decideJoinBranches turns into a jump a branch at a join whose outcome
// every predecessor decides: with the values the predecessor last copied
// into what the branch reads, the test compares a value with itself, or
// follows from the branch that entered the predecessor. `n = a < b ? a : b;
// if (n <= a)` holds on both arms (n is a; or n is b where a < b failed),
// as clang's instcombine folds a compare of a select (bpftune's
// `min(U >> 2, x) <= U >> 2` kept two inlined copies of an event send the
// test excludes: 2.09x clang's verified instructions). Reports whether it
// decided one.
func decideJoinBranches(f *ir.Func) bool {
	preds := map[*ir.Block][]*ir.Block{}
	for _, b := range f.Blocks {
		for _, s := range b.Succs() {
			preds[s] = append(preds[s], b)
		}
	}
	changed := false
	for _, j := range f.Blocks {
		ps := preds[j]
		t := j.Term()
		if len(ps) < 2 || t == nil || t.Op != ir.OpBranch || t.Then == t.Else || t.Note != "" || t.Unroll != 0 {
			continue
		}
		body := j.Instrs[:len(j.Instrs)-1]
		a, okA := valueAtEntry(body, t.A)
		b, okB := valueAtEntry(body, t.B)
		if !okA || !okB {
			continue
		}
		decided, taken := true, false
		for i, p := range ps {
			tk, ok := decideFrom(p, j, preds, ir.Instr{Op: ir.OpBranch, Cond: t.Cond, W32: t.W32, A: a, B: b})
			if !ok || i > 0 && tk != taken {
				decided = false
				break
			}
			taken = tk
		}
		if !decided {
			continue
		}
		to := t.Else
		if taken {
			to = t.Then
		}
		*t = ir.Instr{Op: ir.OpJump, Then: to, Pos: t.Pos}
		changed = true
	}
	return changed
}

// valueAtEntry names o, read after body, by what it holds on entry to
// body's block: the register body's copies read it from. ok is false when
// body computes it otherwise.
func valueAtEntry(body []*ir.Instr, o ir.Operand) (ir.Operand, bool) {
	// Walking back, a copy's source is read where the copy is: only its
	// definitions before that matter.
	for i := len(body) - 1; i >= 0 && !o.IsImm; i-- {
		if in := body[i]; in.Dst == o.Reg {
			if in.Op != ir.OpMov {
				return o, false
			}
			o = in.A
		}
	}
	return o, true
}

// decideFrom decides branch q, read on entry to j, on the edge from p.
func decideFrom(p, j *ir.Block, preds map[*ir.Block][]*ir.Block, q ir.Instr) (taken, ok bool) {
	if p == j {
		return false, false
	}
	body := p.Instrs[:len(p.Instrs)-1]
	q.A, q.B = valueBefore(p, nil, q.A), valueBefore(p, nil, q.B)
	if q.A.IsImm && q.B.IsImm {
		return ir.EvalCond(q.Cond, q.W32, q.A.Imm, q.B.Imm), true
	}
	if q.A == q.B && q.Cond != ir.Set {
		qs, _ := condOutcomes(q.Cond)
		return qs&outEq != 0, true
	}
	// The fact: p's own branch, taken towards j, or the one that entered p.
	fact, held := p.Term(), false
	switch {
	case fact.Op == ir.OpBranch:
		held = fact.Then == j
	case len(preds[p]) == 1:
		// p's body must leave what the fact compares as it was.
		if slices.ContainsFunc(body, func(in *ir.Instr) bool {
			return in.Dst != 0 && (!q.A.IsImm && in.Dst == q.A.Reg || !q.B.IsImm && in.Dst == q.B.Reg)
		}) {
			return false, false
		}
		pp := preds[p][0]
		fact = pp.Term()
		if fact.Op != ir.OpBranch || fact.Then == fact.Else {
			return false, false
		}
		held = fact.Then == p
	default:
		return false, false
	}
	if fact.W32 != q.W32 {
		return false, false
	}
	return impliedBranch(fact, held, &q)
}
