package opt

import (
	"slices"

	"github.com/bpfcc/bpfcc/ir"
)

// foldAddresses moves a constant added to a pointer into the offset of the
// loads and stores that use the sum, within a block: r = p + C; *(r + off)
// becomes *(p + C+off) while neither r nor p is redefined in between. The
// verifier rejects a context pointer changed by arithmetic before a
// dereference (skb->cb[i] with i known only after unrolling), and the form
// saves an instruction anywhere.
//
// Across blocks it folds sums whose register and base are each defined
// once (a parameter counts as its one definition): the base then holds the
// same value wherever the sum is used. `u8 *b = (u8 *)&sk->dst_port;
// return b[0] == 0xca && b[1] == 0xfe;` so reads sk+48 and sk+49, where
// b+1 would be arithmetic on a sock_common pointer, which the verifier
// refuses.
func foldAddresses(f *ir.Func, _ *passCtx) {
	type sum struct {
		base ir.Reg
		c    int64
	}
	defs := defCounts(f)
	global := map[ir.Reg]sum{}
	for _, b := range f.Blocks {
		for i := 0; i < len(b.Instrs); i++ {
			in := b.Instrs[i]
			d := in.Dst
			if d == 0 || defs[d] != 1 || in.A.IsImm || in.A.Reg == d {
				continue
			}
			add := in.Op == ir.OpALU && in.ALU == ir.Add && !in.W32 && in.B.IsImm
			if !add && in.Op != ir.OpMov {
				continue
			}
			base := in.A.Reg
			if defs[base] != 1 {
				if !add {
					continue
				}
				// The base is assigned elsewhere too (`sk` reused for
				// another socket): fold against a copy of it taken
				// here, which holds its value wherever the sum is used.
				// dce2 drops the copy when nothing folds.
				base = f.NewReg()
				defs[base] = 1
				b.Instrs = slices.Insert(b.Instrs, i, &ir.Instr{Op: ir.OpMov, Dst: base, A: in.A, Pos: in.Pos})
				i++
			}
			if add {
				global[d] = sum{base, in.B.Imm}
			} else {
				global[d] = sum{base, 0}
			}
		}
	}
	for _, b := range f.Blocks {
		sums := map[ir.Reg]sum{}
		for _, in := range b.Instrs {
			switch in.Op {
			case ir.OpLoad, ir.OpStore, ir.OpAtomic:
				for in.Slot == nil && !in.A.IsImm && in.Core == nil {
					s, ok := sums[in.A.Reg]
					if !ok {
						s, ok = global[in.A.Reg]
					}
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
