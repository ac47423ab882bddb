package opt

import (
	"sort"

	"github.com/bpfcc/bpfcc/ir"
)

// orderMemmoves interleaves the loads and stores of a memmove whose
// direction is known. A memmove is lowered as every load, then every store
// (the regions may overlap); when both sides are one base register and
// the destination is the source moved by a constant d, copying chunk by
// chunk from the far end (descending offsets for d > 0, ascending for
// d < 0) never loads a byte a store already overwrote, and needs one
// register instead of one per chunk: `memmove(data + 4, data, 12)` (a
// VLAN tag's removal) held twelve bytes in registers and spilled five.
func orderMemmoves(f *ir.Func, _ *passCtx) {
	uses := map[ir.Reg]int{}
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			forEachUse(in, func(o *ir.Operand) { uses[o.Reg]++ })
		}
	}
	for _, b := range f.Blocks {
		for i := 0; i < len(b.Instrs); i++ {
			if k := memmoveAt(b.Instrs[i:], uses); k > 0 {
				i += 2*k - 1
			}
		}
	}
}

// memmoveAt reorders a memmove starting at ins[0], when one does, and
// returns its number of chunks (0 when none).
func memmoveAt(ins []*ir.Instr, uses map[ir.Reg]int) int {
	plain := func(in *ir.Instr, op ir.Op) bool {
		return in.Op == op && !in.Volatile && in.Core == nil && in.Slot == nil && !in.A.IsImm
	}
	k := 0
	for k < len(ins) && plain(ins[k], ir.OpLoad) && ins[k].A.Reg == ins[0].A.Reg && ins[k].Dst != ins[0].A.Reg {
		k++
	}
	if k < 2 || len(ins) < 2*k {
		return 0
	}
	base := ins[0].A.Reg
	loads, stores := ins[:k], ins[k:2*k]
	d := stores[0].Off - loads[0].Off
	if d == 0 {
		return 0
	}
	for j, st := range stores {
		ld := loads[j]
		if !plain(st, ir.OpStore) || st.A.Reg != base || st.B.IsImm || st.B.Reg != ld.Dst ||
			st.Size != ld.Size || st.Off-ld.Off != d || uses[ld.Dst] != 1 {
			return 0
		}
	}
	// The chunks must not overlap one another.
	order := make([]int, k)
	for j := range order {
		order[j] = j
	}
	sort.Slice(order, func(a, b int) bool { return loads[order[a]].Off < loads[order[b]].Off })
	for j := 1; j < k; j++ {
		prev, cur := loads[order[j-1]], loads[order[j]]
		if prev.Off+int64(prev.Size) > cur.Off {
			return 0
		}
	}
	if d > 0 {
		for a, b := 0, k-1; a < b; a, b = a+1, b-1 {
			order[a], order[b] = order[b], order[a]
		}
	}
	ls, ss := append([]*ir.Instr(nil), loads...), append([]*ir.Instr(nil), stores...)
	for j, c := range order {
		ins[2*j], ins[2*j+1] = ls[c], ss[c]
	}
	return k
}
