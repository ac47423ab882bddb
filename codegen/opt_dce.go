package codegen

import (
	"github.com/bpfcc/bpfcc/codegen/internal/regalloc"
	"github.com/bpfcc/bpfcc/ir"
)

// liveOut computes, per block, the registers live at its end.
func liveOut(f *ir.Func) []regalloc.Bitset {
	_, out := liveness(f)
	return out
}

// liveness computes, per block, the registers live at its start and end.
func liveness(f *ir.Func) (in, out []regalloc.Bitset) {
	n := int(max(f.NextReg, 1))
	rf := &regalloc.Func{N: n, Blocks: make([]regalloc.Block, len(f.Blocks))}
	for i, b := range f.Blocks {
		rb := &rf.Blocks[i]
		for _, in := range b.Instrs {
			var ri regalloc.Insn
			forEachUse(in, func(o *ir.Operand) { ri.Uses = append(ri.Uses, int(o.Reg)) })
			if in.Dst != 0 {
				ri.Defs = []int{int(in.Dst)}
			}
			rb.Insns = append(rb.Insns, ri)
		}
		for _, s := range b.Succs() {
			rb.Succs = append(rb.Succs, s.ID)
		}
	}
	return regalloc.Liveness(rf)
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
							next.Note = joinNotes(in.Note, next.Note)
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
