package opt

import (
	"github.com/bpfcc/bpfcc/codegen/internal/regalloc"
	"github.com/bpfcc/bpfcc/ir"
)

// liveOut computes, per block, the registers live at its end.
func liveOut(f *ir.Func) []regalloc.Bitset {
	_, out := liveness(f)
	return out
}

// liveness computes, per block, the registers live at its start and end
// (as regalloc.Liveness, without building its per-instruction lists).
func liveness(f *ir.Func) (in, out []regalloc.Bitset) {
	n := int(max(f.NextReg, 1))
	nb := len(f.Blocks)
	words := (n + 63) / 64
	// One allocation for the four sets of every block.
	all := make(regalloc.Bitset, 4*nb*words)
	set := func(k, i int) regalloc.Bitset { o := (k*nb + i) * words; return all[o : o+words : o+words] }
	in, out = make([]regalloc.Bitset, nb), make([]regalloc.Bitset, nb)
	use, def := make([]regalloc.Bitset, nb), make([]regalloc.Bitset, nb)
	succs := make([][]int, nb)
	for i, b := range f.Blocks {
		in[i], out[i], use[i], def[i] = set(0, i), set(1, i), set(2, i), set(3, i)
		u, d := use[i], def[i]
		for _, ins := range b.Instrs {
			forEachUse(ins, func(o *ir.Operand) {
				if r := int(o.Reg); !d.Has(r) {
					u.Add(r)
				}
			})
			if ins.Dst != 0 {
				d.Add(int(ins.Dst))
			}
		}
		for _, s := range b.Succs() {
			succs[i] = append(succs[i], s.ID)
		}
	}
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
	return in, out
}

// eliminateDeadCode removes side-effect-free instructions whose results are
// never used, and drops unused results of calls and atomics.
func eliminateDeadCode(f *ir.Func, _ *passCtx) {
	for changed := true; changed; {
		changed = false
		out := liveOut(f)
		for i, b := range f.Blocks {
			live := out[i].Copy()
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
