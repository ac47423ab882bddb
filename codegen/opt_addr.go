package codegen

import "github.com/bpfcc/bpfcc/ir"

// foldAddresses moves a constant added to a pointer into the offset of the
// loads and stores that use the sum, within a block: r = p + C; *(r + off)
// becomes *(p + C+off) while neither r nor p is redefined in between. The
// verifier rejects a context pointer changed by arithmetic before a
// dereference (skb->cb[i] with i known only after unrolling), and the form
// saves an instruction anywhere.
func foldAddresses(f *ir.Func, _ *passCtx) {
	type sum struct {
		base ir.Reg
		c    int64
	}
	for _, b := range f.Blocks {
		sums := map[ir.Reg]sum{}
		for _, in := range b.Instrs {
			switch in.Op {
			case ir.OpLoad, ir.OpStore, ir.OpAtomic:
				for in.Slot == nil && !in.A.IsImm && in.Core == nil {
					s, ok := sums[in.A.Reg]
					if !ok || !fitsInt16(in.Off+s.c) {
						break
					}
					in.A, in.Off = ir.R(s.base), in.Off+s.c
				}
			}
			if d := in.Dst; d != 0 {
				delete(sums, d)
				for r, s := range sums {
					if s.base == d {
						delete(sums, r)
					}
				}
				switch {
				case in.Op == ir.OpALU && in.ALU == ir.Add && !in.W32 && !in.A.IsImm && in.B.IsImm && in.A.Reg != d:
					sums[d] = sum{in.A.Reg, in.B.Imm}
				case in.Op == ir.OpMov && !in.A.IsImm && in.A.Reg != d:
					sums[d] = sum{in.A.Reg, 0}
				}
			}
		}
	}
}
