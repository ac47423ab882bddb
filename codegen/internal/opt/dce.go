package opt

import (
	"github.com/bpfcc/bpfcc/codegen/internal/regalloc"
	"github.com/bpfcc/bpfcc/ir"
)

// blockLiveness holds the registers live at each block's start and end.
// Only a register that some block reads before writing it can be live at
// a block boundary, so the sets hold those alone, numbered densely: a
// program unrolled into 6,000 blocks and 20,000 registers has a few
// hundred such, and sets as wide as all registers took 70 MB and most of
// the compile each time they were computed.
type blockLiveness struct {
	index   []int32 // register -> its number in the sets, or -1
	regs    []int   // number -> register
	in, out []regalloc.Bitset
}

// liveIn reports whether r is live at block b's start.
func (l *blockLiveness) liveIn(b int, r ir.Reg) bool {
	k := l.index[r]
	return k >= 0 && l.in[b].Has(int(k))
}

// addLiveOut adds the registers live at block b's end to set.
func (l *blockLiveness) addLiveOut(b int, set regalloc.Bitset) {
	l.out[b].ForEach(func(k int) { set.Add(l.regs[k]) })
}

// liveness computes, per block, the registers live at its start and end
// (as regalloc.Liveness, without building its per-instruction lists).
func liveness(f *ir.Func) *blockLiveness {
	n := int(max(f.NextReg, 1))
	nb := len(f.Blocks)
	l := &blockLiveness{index: make([]int32, n)}
	// The registers read before written in each block: stamp[r] is the
	// last block (+1) that defined r, seen[r] the last that listed it.
	stamp, seen := make([]int32, n), make([]int32, n)
	ue := make([][]int32, nb)
	for i, b := range f.Blocks {
		for _, ins := range b.Instrs {
			forEachUse(ins, func(o *ir.Operand) {
				if r := o.Reg; stamp[r] != int32(i+1) && seen[r] != int32(i+1) {
					seen[r] = int32(i + 1)
					ue[i] = append(ue[i], int32(r))
				}
			})
			if ins.Dst != 0 {
				stamp[ins.Dst] = int32(i + 1)
			}
		}
	}
	for r := range l.index {
		l.index[r] = -1
	}
	for _, rs := range ue {
		for _, r := range rs {
			if l.index[r] < 0 {
				l.index[r] = int32(len(l.regs))
				l.regs = append(l.regs, int(r))
			}
		}
	}
	words := (len(l.regs) + 63) / 64
	// One allocation for the four sets of every block.
	all := make(regalloc.Bitset, 4*nb*words)
	set := func(k, i int) regalloc.Bitset { o := (k*nb + i) * words; return all[o : o+words : o+words] }
	l.in, l.out = make([]regalloc.Bitset, nb), make([]regalloc.Bitset, nb)
	use, def := make([]regalloc.Bitset, nb), make([]regalloc.Bitset, nb)
	succs := make([][]int, nb)
	for i, b := range f.Blocks {
		l.in[i], l.out[i], use[i], def[i] = set(0, i), set(1, i), set(2, i), set(3, i)
		for _, r := range ue[i] {
			use[i].Add(int(l.index[r]))
		}
		for _, ins := range b.Instrs {
			if k := l.index[ins.Dst]; ins.Dst != 0 && k >= 0 {
				def[i].Add(int(k))
			}
		}
		for _, s := range b.Succs() {
			succs[i] = append(succs[i], s.ID)
		}
	}
	in, out := l.in, l.out
	for changed := true; changed; {
		changed = false
		for i := nb - 1; i >= 0; i-- {
			for _, s := range succs[i] {
				out[i].UnionWith(in[s])
			}
			// in = use ∪ (out − def)
			for w := range in[i] {
				n := use[i][w] | (out[i][w] &^ def[i][w])
				if n != in[i][w] {
					in[i][w] = n
					changed = true
				}
			}
		}
	}
	return l
}

// eliminateDeadCode removes side-effect-free instructions whose results are
// never used, and drops unused results of calls and atomics.
func eliminateDeadCode(f *ir.Func, _ *passCtx) {
	for changed := true; changed; {
		changed = false
		lv := liveness(f)
		live := regalloc.NewBitset(int(max(f.NextReg, 1)))
		for i, b := range f.Blocks {
			clear(live)
			lv.addLiveOut(i, live)
			kept := make([]*ir.Instr, 0, len(b.Instrs))
			for j := len(b.Instrs) - 1; j >= 0; j-- {
				in := b.Instrs[j]
				selfMove := in.Op == ir.OpMov && !in.A.IsImm && in.A.Reg == in.Dst
				if d := in.Dst; d != 0 && (!live.Has(int(d)) || selfMove) {
					switch {
					case pure(in):
						if in.Note != "" && len(kept) > 0 {
							next := kept[len(kept)-1]
							next.Note = ir.JoinNotes(in.Note, next.Note)
						}
						changed = true
						continue
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
}
