package opt

import (
	"github.com/bpfcc/bpfcc/codegen/internal/regalloc"
	"github.com/bpfcc/bpfcc/ir"
)

// liveness computes, per block, the registers live at its start and end
// (as regalloc.Liveness, without building its per-instruction lists).
func liveness(f *ir.Func) *regalloc.BlockLive {
	ue := regalloc.NewUpwardExposed(int(max(f.NextReg, 1)), len(f.Blocks))
	succs := make([][]int, len(f.Blocks))
	for i, b := range f.Blocks {
		for _, ins := range b.Instrs {
			forEachUse(ins, func(o *ir.Operand) { ue.Use(i, int(o.Reg)) })
			if ins.Dst != 0 {
				ue.Def(i, int(ins.Dst))
			}
		}
		for _, s := range b.Succs() {
			succs[i] = append(succs[i], s.ID)
		}
	}
	return ue.Solve(func(b int, def func(int)) {
		for _, ins := range f.Blocks[b].Instrs {
			if ins.Dst != 0 {
				def(int(ins.Dst))
			}
		}
	}, func(b int) []int { return succs[b] })
}

// eliminateDeadCode removes side-effect-free instructions whose results are
// never used, and drops unused results of calls and atomics.
//
// "Used" is strong liveness: a register read only by instructions that are
// themselves removed is dead, so one dataflow finds every chain of dead
// values at once, and the cycles of them (a counter only counting itself)
// that rounds of plain liveness never find. Rounds took a chain's link
// each: 64 rounds, 5 s, on a 10,000-block function of datadog-agent's.
func eliminateDeadCode(f *ir.Func, _ *passCtx) {
	sl := newStrongLiveness(f)
	sl.solve()
	live := regalloc.NewBitset(int(max(f.NextReg, 1)))
	for i, b := range f.Blocks {
		clear(live)
		sl.addOut(i, live)
		kept := make([]*ir.Instr, 0, len(b.Instrs))
		for j := len(b.Instrs) - 1; j >= 0; j-- {
			in := b.Instrs[j]
			if dead(in, live) {
				if in.Note != "" && len(kept) > 0 {
					next := kept[len(kept)-1]
					next.Note = ir.JoinNotes(in.Note, next.Note)
				}
				continue
			}
			if d := in.Dst; d != 0 && !live.Has(int(d)) {
				switch {
				case in.Op == ir.OpCall || in.Op == ir.OpCallFunc || in.Op == ir.OpAsm:
					in.Dst = 0
				case in.Op == ir.OpAtomic && in.Atomic <= ir.AtomicXor:
					in.Dst, in.Fetch = 0, false
				}
			}
			if in.Dst != 0 {
				live.Remove(int(in.Dst))
			}
			forEachUse(in, func(o *ir.Operand) { live.Add(int(o.Reg)) })
			kept = append(kept, in)
		}
		for l, r := 0, len(kept)-1; l < r; l, r = l+1, r-1 {
			kept[l], kept[r] = kept[r], kept[l]
		}
		b.Instrs = kept
	}
}

// dead reports whether in goes: a pure instruction whose result is not
// live after it, or a move of a register to itself.
func dead(in *ir.Instr, live regalloc.Bitset) bool {
	d := in.Dst
	if d == 0 || !pure(in) {
		return false
	}
	return !live.Has(int(d)) || in.Op == ir.OpMov && !in.A.IsImm && in.A.Reg == d
}

// strongLiveness holds, per block, the registers strongly live at its
// start, over the registers some block reads before writing (no other is
// live at a block's edge), numbered densely.
type strongLiveness struct {
	f     *ir.Func
	index []int32 // register -> its number, or -1
	regs  []ir.Reg
	in    []regalloc.Bitset
	preds [][]int
	// scratch, a full-width set, and the registers set in it
	scratch regalloc.Bitset
	touched []ir.Reg
}

func newStrongLiveness(f *ir.Func) *strongLiveness {
	renumber(f) // blocks are indexed by ID
	n := int(max(f.NextReg, 1))
	sl := &strongLiveness{f: f, index: make([]int32, n), scratch: regalloc.NewBitset(n)}
	defined := make([]int32, n) // the block (+1) that last wrote a register
	for r := range sl.index {
		sl.index[r] = -1
	}
	for i, b := range f.Blocks {
		for _, in := range b.Instrs {
			forEachUse(in, func(o *ir.Operand) {
				if defined[o.Reg] != int32(i+1) && sl.index[o.Reg] < 0 {
					sl.index[o.Reg] = 0
				}
			})
			if in.Dst != 0 {
				defined[in.Dst] = int32(i + 1)
			}
		}
	}
	for r, k := range sl.index {
		if k == 0 {
			sl.index[r] = int32(len(sl.regs))
			sl.regs = append(sl.regs, ir.Reg(r))
		}
	}
	words := (len(sl.regs) + 63) / 64
	all := make(regalloc.Bitset, len(f.Blocks)*words)
	sl.in = make([]regalloc.Bitset, len(f.Blocks))
	for i := range f.Blocks {
		sl.in[i] = all[i*words : (i+1)*words : (i+1)*words]
	}
	sl.preds = make([][]int, len(f.Blocks))
	for i, b := range f.Blocks {
		for _, s := range b.Succs() {
			sl.preds[s.ID] = append(sl.preds[s.ID], i)
		}
	}
	return sl
}

// addOut adds to set (full width) the registers strongly live at block
// b's end: those live at a successor's start.
func (sl *strongLiveness) addOut(b int, set regalloc.Bitset) {
	for _, s := range sl.f.Blocks[b].Succs() {
		sl.in[s.ID].ForEach(func(k int) { set.Add(int(sl.regs[k])) })
	}
}

// solve runs the dataflow to its fixpoint with a worklist; the sets only
// grow, so each block is revisited only when a successor's grew.
func (sl *strongLiveness) solve() {
	nb := len(sl.f.Blocks)
	queued := make([]bool, nb)
	work := make([]int, 0, nb)
	for i := range nb { // popped from the end: the last block first
		work = append(work, i)
		queued[i] = true
	}
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		queued[b] = false
		if sl.transfer(b) {
			for _, p := range sl.preds[b] {
				if !queued[p] {
					queued[p] = true
					work = append(work, p)
				}
			}
		}
	}
}

// transfer recomputes block b's live-in set and reports whether it grew.
func (sl *strongLiveness) transfer(b int) bool {
	live := sl.scratch
	set := func(r ir.Reg) {
		if !live.Has(int(r)) {
			live.Add(int(r))
			sl.touched = append(sl.touched, r)
		}
	}
	for _, s := range sl.f.Blocks[b].Succs() {
		sl.in[s.ID].ForEach(func(k int) { set(sl.regs[k]) })
	}
	instrs := sl.f.Blocks[b].Instrs
	for j := len(instrs) - 1; j >= 0; j-- {
		in := instrs[j]
		if dead(in, live) {
			continue
		}
		if in.Dst != 0 {
			live.Remove(int(in.Dst))
		}
		forEachUse(in, func(o *ir.Operand) { set(o.Reg) })
	}
	grew := false
	for _, r := range sl.touched {
		if live.Has(int(r)) {
			if k := int(sl.index[r]); k >= 0 && !sl.in[b].Has(k) {
				sl.in[b].Add(k)
				grew = true
			}
			live.Remove(int(r))
		}
	}
	sl.touched = sl.touched[:0]
	return grew
}
