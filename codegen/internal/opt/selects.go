package opt

import (
	"slices"

	"github.com/bpfcc/bpfcc/ir"
)

// selectPhi is a register a two-way branch's arms each set once by a copy
// and that only its join and what the join dominates read after them: at
// the join it holds cond ? then : els (`min(a, b)`).
type selectPhi struct {
	r         ir.Reg
	cond      *ir.Instr
	then, els ir.Operand
	// thenB and elsB are the blocks of the copies (by index), thenI and
	// elsI their places there.
	thenB, elsB, thenI, elsI int
	// stable: the compared and copied values are constants or single
	// definitions, the same wherever the join is (value numbers need it).
	stable bool
}

// selectPhis finds the selects of f by the index of their join. An arm is
// a block of the branch's own that jumps to the join, or the branching
// block itself when its other side is the join (`r = b; if (a < b) r = a`).
func selectPhis(f *ir.Func, defs map[ir.Reg]int, dom func(a, b int) bool) map[int][]selectPhi {
	type def struct {
		block, index int
		in           *ir.Instr
	}
	twice := map[ir.Reg][]def{}
	for bi, b := range f.Blocks {
		for i, in := range b.Instrs {
			if in.Dst != 0 && defs[in.Dst] == 2 {
				twice[in.Dst] = append(twice[in.Dst], def{bi, i, in})
			}
		}
	}
	if len(twice) == 0 {
		return nil
	}
	npreds := make([]int, len(f.Blocks))
	for _, b := range f.Blocks {
		for _, s := range b.Succs() {
			npreds[s.ID]++
		}
	}
	// arm reports the join an arm block of branch block b jumps to.
	arm := func(a *ir.Block, b *ir.Block) (*ir.Block, bool) {
		t := a.Term()
		if a == b || npreds[a.ID] != 1 || t == nil || t.Op != ir.OpJump {
			return nil, false
		}
		return t.Then, true
	}
	type armed struct {
		join       int
		cond       *ir.Instr
		thenB, els int // the blocks whose copy each side's value is
	}
	var shapes []armed
	for bi, b := range f.Blocks {
		t := b.Term()
		if t == nil || t.Op != ir.OpBranch || t.Then == t.Else {
			continue
		}
		jt, okT := arm(t.Then, b)
		je, okE := arm(t.Else, b)
		switch {
		case okT && okE && jt == je && jt != b:
			shapes = append(shapes, armed{jt.ID, t, t.Then.ID, t.Else.ID})
		case okT && jt == t.Else:
			shapes = append(shapes, armed{jt.ID, t, t.Then.ID, bi})
		case okE && je == t.Then:
			shapes = append(shapes, armed{je.ID, t, bi, t.Else.ID})
		}
	}
	byArms := map[[2]int]armed{}
	for _, s := range shapes {
		byArms[[2]int{s.thenB, s.els}] = s
	}
	// What reads each register, by block.
	readers := map[ir.Reg][]int{}
	for bi, b := range f.Blocks {
		for _, in := range b.Instrs {
			forEachUse(in, func(o *ir.Operand) {
				if _, ok := twice[o.Reg]; ok {
					readers[o.Reg] = append(readers[o.Reg], bi)
				}
			})
		}
	}
	out := map[int][]selectPhi{}
	for r, ds := range twice {
		if len(ds) != 2 || ds[0].in.Op != ir.OpMov || ds[1].in.Op != ir.OpMov {
			continue
		}
		s, ok := byArms[[2]int{ds[0].block, ds[1].block}]
		x, y := ds[0], ds[1]
		if !ok {
			if s, ok = byArms[[2]int{ds[1].block, ds[0].block}]; !ok {
				continue
			}
			x, y = y, x
		}
		// The branching block's copy must come before its branch reads
		// anything of r's, and each copy's source hold its value to
		// the arm's end: single definitions or constants.
		single := func(o ir.Operand) bool { return o.IsImm || defs[o.Reg] == 1 }
		stable := single(x.in.A) && single(y.in.A) && single(s.cond.A) && single(s.cond.B)
		fine := true
		for _, bi := range readers[r] {
			if bi != x.block && bi != y.block && !dom(s.join, bi) {
				fine = false
				break
			}
		}
		if fine {
			out[s.join] = append(out[s.join], selectPhi{r: r, cond: s.cond, then: x.in.A, els: y.in.A, thenB: x.block, elsB: y.block, thenI: x.index, elsI: y.index, stable: stable})
		}
	}
	for _, ps := range out {
		slices.SortFunc(ps, func(a, b selectPhi) int { return int(a.r) - int(b.r) })
	}
	return out
}
