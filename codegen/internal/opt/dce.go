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
func eliminateDeadCode(f *ir.Func, _ *passCtx) {
	for changed := true; changed; {
		changed = false
		lv := liveness(f)
		live := regalloc.NewBitset(int(max(f.NextReg, 1)))
		for i, b := range f.Blocks {
			clear(live)
			lv.AddOut(i, live)
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
