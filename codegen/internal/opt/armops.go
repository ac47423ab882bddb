package opt

import (
	"slices"

	"github.com/bpfcc/bpfcc/ir"
)

// computeInArms moves an operation that reads a select (see selectPhi)
// into the select's arms when on one arm it folds: `curlen = min(remaining,
// MAX); ...; remaining -= curlen; if (!remaining) break;` becomes, at the
// select, remaining' = 0 on the arm where curlen is remaining and
// remaining - MAX on the other. The verifier cannot tell that remaining -
// curlen is 0 where the two are one value, so the loop went on from that
// arm with a wrapped range and every trip doubled the paths
// (inspektor-gadget's gotls chunked copy: over 1M verified instructions,
// clang's object 8,127; now 1,955). The operation's other operand must
// hold its value from the arms to the operation: the operation sits in
// the join or a chain of single-predecessor blocks below it, none of
// which writes that operand before it, and a branch must test its result.
func computeInArms(f *ir.Func, _ *passCtx) {
	renumber(f)
	idom := dominators(f)
	pre, post := domIntervals(idom)
	dom := func(a, b int) bool { return pre[a] >= 0 && pre[b] >= 0 && pre[a] <= pre[b] && post[b] <= post[a] }
	defs := defCounts(f)
	phis := selectPhis(f, defs, dom)
	if len(phis) == 0 {
		return
	}
	preds := map[*ir.Block][]*ir.Block{}
	for _, b := range f.Blocks {
		for _, s := range b.Succs() {
			preds[s] = append(preds[s], b)
		}
	}
	byReg := map[ir.Reg]selectPhi{}
	joinOf := map[ir.Reg]*ir.Block{}
	for j, ps := range phis {
		for _, p := range ps {
			byReg[p.r], joinOf[p.r] = p, f.Blocks[j]
		}
	}
	// Only a value a branch tests is worth a register of its own: on the
	// arm where it folds, the branch is decided for the verifier.
	tested := map[ir.Reg]bool{}
	for _, b := range f.Blocks {
		if t := b.Term(); t != nil && t.Op == ir.OpBranch {
			for _, o := range []ir.Operand{t.A, t.B} {
				if !o.IsImm {
					tested[o.Reg] = true
				}
			}
		}
	}
	for _, b := range f.Blocks {
		for i := 0; i < len(b.Instrs); i++ {
			x := b.Instrs[i]
			if x.Op != ir.OpALU || x.Dst == 0 || !tested[x.Dst] || !speculable(x) {
				continue
			}
			var p selectPhi
			var other ir.Operand
			if pa, ok := byReg[x.A.Reg]; ok && !x.A.IsImm {
				p, other = pa, x.B
			} else if pb, ok := byReg[x.B.Reg]; ok && !x.B.IsImm {
				p, other = pb, x.A
			} else {
				continue
			}
			if _, ok := byReg[other.Reg]; ok && !other.IsImm {
				continue
			}
			// What the operation reads must hold its value from each
			// arm's copy to it.
			if !holdsFromJoin(joinOf[p.r], b, i, []ir.Operand{other, p.then, p.els}, p.r, preds, dom) ||
				writesAfter(f.Blocks[p.thenB], p.thenI, other, p.then) || writesAfter(f.Blocks[p.elsB], p.elsI, other, p.els) {
				continue
			}
			at := func(v ir.Operand) *ir.Instr {
				in := *x
				if !x.A.IsImm && x.A.Reg == p.r {
					in.A = v
				}
				if !x.B.IsImm && x.B.Reg == p.r {
					in.B = v
				}
				return foldedALU(&in)
			}
			ti, ei := at(p.then), at(p.els)
			if ti.Op != ir.OpMov && ei.Op != ir.OpMov {
				continue // folds on neither arm: nothing gained
			}
			q := f.NewReg()
			ti.Dst, ei.Dst = q, q
			ti.Pos, ei.Pos = x.Pos, x.Pos
			insertBeforeTerm(f.Blocks[p.thenB], ti)
			insertBeforeTerm(f.Blocks[p.elsB], ei)
			*x = ir.Instr{Op: ir.OpMov, Dst: x.Dst, A: ir.R(q), Pos: x.Pos, Note: x.Note}
		}
	}
}

// speculable reports whether x may run in an arm whose path does not
// reach it: the arms compute it on every path through them. A 32-bit
// operation is no pointer arithmetic, and adding or subtracting is what
// the verifier allows on any pointer; a 64-bit bitwise operation, multiply
// or shift of a pointer it refuses, where the program may never have done
// it.
func speculable(x *ir.Instr) bool {
	return x.W32 || x.ALU == ir.Add || x.ALU == ir.Sub
}

// holdsFromJoin reports whether the registers of ops (and the select's
// register r) hold at instruction i of b what they held on entry to join:
// join dominates b, and no block on a path from join to b writes them.
func holdsFromJoin(join, b *ir.Block, i int, ops []ir.Operand, r ir.Reg, preds map[*ir.Block][]*ir.Block, dom func(a, b int) bool) bool {
	writes := func(ins []*ir.Instr) bool {
		return slices.ContainsFunc(ins, func(in *ir.Instr) bool { return in.Dst != 0 && (in.Dst == r || reads(ops, in.Dst)) })
	}
	if !dom(join.ID, b.ID) || writes(b.Instrs[:i]) {
		return false
	}
	if b == join {
		return true
	}
	// The blocks that reach b without passing join.
	seen := map[*ir.Block]bool{join: true}
	work := slices.Clone(preds[b])
	for len(work) > 0 {
		x := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[x] {
			continue
		}
		seen[x] = true
		if writes(x.Instrs) {
			return false
		}
		work = append(work, preds[x]...)
	}
	return !writes(join.Instrs[:len(join.Instrs)-1])
}

// writesAfter reports whether b writes a register of ops after its i-th
// instruction.
func writesAfter(b *ir.Block, i int, ops ...ir.Operand) bool {
	return slices.ContainsFunc(b.Instrs[i+1:], func(in *ir.Instr) bool { return in.Dst != 0 && reads(ops, in.Dst) })
}

// reads reports whether r is a register of ops.
func reads(ops []ir.Operand, r ir.Reg) bool {
	return slices.ContainsFunc(ops, func(o ir.Operand) bool { return !o.IsImm && o.Reg == r })
}

// foldedALU is in with its value folded where its operands decide it: two
// constants, or one register on both sides of a sub, xor, and or or. The
// result is a copy (a constant or the register) or in itself.
func foldedALU(in *ir.Instr) *ir.Instr {
	switch {
	case in.A.IsImm && in.B.IsImm:
		return &ir.Instr{Op: ir.OpMov, A: ir.Imm(ir.EvalALU(in.ALU, in.W32, in.A.Imm, in.B.Imm))}
	case !in.A.IsImm && in.A == in.B:
		switch in.ALU {
		case ir.Sub, ir.Xor:
			return &ir.Instr{Op: ir.OpMov, A: ir.Imm(0)}
		case ir.And, ir.Or:
			if !in.W32 {
				return &ir.Instr{Op: ir.OpMov, A: in.A}
			}
		}
	}
	return in
}

// insertBeforeTerm puts in before b's terminator.
func insertBeforeTerm(b *ir.Block, in *ir.Instr) {
	n := len(b.Instrs)
	b.Instrs = slices.Insert(b.Instrs, n-1, in)
}
