package codegen

import (
	"github.com/cilium/ebpf/asm"

	"github.com/bpfcc/bpfcc/ir"
)

// A slot's live range: where its memory may hold a value that a later
// access reads. Two objects whose ranges never meet can share memory even
// when their C blocks overlap: a variable declared at the top of a function
// but first used after an inlined helper's locals are dead, or one whose
// last use comes before them (KubeArmor's kretprobe__tcp_connect). Scopes
// (ir.Scope.Disjoint, ir.EndedBefore) bound lifetimes by declarations;
// ranges bound them by accesses, and layoutSlots shares memory when
// either allows it: each is a safe over-approximation of when the object
// is alive.

// slotRange is, per block, the span of instruction indices [lo, hi] in
// which the slot is live; a block not in the map holds none of it.
type slotRange map[*ir.Block][2]int

// overlaps reports whether a and b are live at a common instruction.
func (a slotRange) overlaps(b slotRange) bool {
	if len(b) < len(a) {
		a, b = b, a
	}
	for blk, x := range a {
		if y, ok := b[blk]; ok && x[0] <= y[1] && y[0] <= x[1] {
			return true
		}
	}
	return false
}

// helperDynptrFromMem keeps the pointer it is passed inside the dynptr
// object: the memory is read later through the dynptr, not the pointer.
const helperDynptrFromMem = int64(asm.FnDynptrFromMem)

// slotRanges returns the live range of each slot of f whose every access
// it can see: through instructions naming the slot, or registers holding
// an address computed from it. A slot whose address is stored to memory,
// returned, or passed to a BPF function, a kfunc, inline asm or a helper
// that keeps it has no range (nil): only its scope bounds its lifetime.
func slotRanges(f *ir.Func) map[*ir.Slot]slotRange {
	// taint: the slots whose address a register may hold, by any of its
	// definitions (registers are not SSA: flow-insensitive, a superset).
	taint := map[ir.Reg][]*ir.Slot{}
	has := func(r ir.Reg, s *ir.Slot) bool {
		for _, t := range taint[r] {
			if t == s {
				return true
			}
		}
		return false
	}
	regs := func(in *ir.Instr) []ir.Reg {
		var rs []ir.Reg
		add := func(o ir.Operand) {
			if !o.IsImm && o.Reg != 0 {
				rs = append(rs, o.Reg)
			}
		}
		add(in.A)
		add(in.B)
		add(in.C)
		for _, a := range in.Args {
			add(a)
		}
		return rs
	}
	for changed := true; changed; {
		changed = false
		for _, b := range f.Blocks {
			for _, in := range b.Instrs {
				if in.Dst == 0 || in.Op == ir.OpLoad {
					// A load reads data: an address it could return was
					// stored to memory, an escape.
					continue
				}
				if in.Op == ir.OpFrameAddr && !has(in.Dst, in.Slot) {
					taint[in.Dst] = append(taint[in.Dst], in.Slot)
					changed = true
				}
				if in.Op == ir.OpFrameAddr {
					continue
				}
				for _, r := range regs(in) {
					for _, s := range taint[r] {
						if !has(in.Dst, s) {
							taint[in.Dst] = append(taint[in.Dst], s)
							changed = true
						}
					}
				}
			}
		}
	}

	// The accesses of each slot, by block, and the slots that escape.
	type span struct{ first, last int }
	access := map[*ir.Slot]map[*ir.Block]*span{}
	escaped := map[*ir.Slot]bool{}
	touch := func(s *ir.Slot, b *ir.Block, i int) {
		m := access[s]
		if m == nil {
			m = map[*ir.Block]*span{}
			access[s] = m
		}
		if sp := m[b]; sp != nil {
			sp.last = i
		} else {
			m[b] = &span{i, i}
		}
	}
	escape := func(o ir.Operand) {
		if !o.IsImm {
			for _, s := range taint[o.Reg] {
				escaped[s] = true
			}
		}
	}
	for _, b := range f.Blocks {
		for i, in := range b.Instrs {
			if in.Slot != nil {
				touch(in.Slot, b, i)
			}
			for _, r := range regs(in) {
				for _, s := range taint[r] {
					touch(s, b, i)
				}
			}
			switch in.Op {
			case ir.OpStore:
				escape(in.B)
			case ir.OpAtomic:
				escape(in.B)
				escape(in.C)
			case ir.OpRet:
				escape(in.A)
			case ir.OpCallFunc, ir.OpAsm:
				for _, a := range in.Args {
					escape(a)
				}
			case ir.OpCall:
				if in.Imm == helperDynptrFromMem {
					for _, a := range in.Args {
						escape(a)
					}
				}
			}
		}
	}

	preds := map[*ir.Block][]*ir.Block{}
	for _, b := range f.Blocks {
		for _, s := range b.Succs() {
			preds[s] = append(preds[s], b)
		}
	}
	ranges := map[*ir.Slot]slotRange{}
	for s, acc := range access {
		if escaped[s] || s.Volatile {
			continue
		}
		// from: blocks an access reaches at entry; to: blocks from whose
		// exit an access is reachable.
		from := map[*ir.Block]bool{}
		to := map[*ir.Block]bool{}
		var work []*ir.Block
		for b := range acc {
			work = append(work, b)
		}
		for len(work) > 0 {
			b := work[len(work)-1]
			work = work[:len(work)-1]
			for _, n := range b.Succs() {
				if !from[n] {
					from[n] = true
					work = append(work, n)
				}
			}
		}
		for b := range acc {
			work = append(work, b)
		}
		for len(work) > 0 {
			b := work[len(work)-1]
			work = work[:len(work)-1]
			for _, p := range preds[b] {
				if !to[p] {
					to[p] = true
					work = append(work, p)
				}
			}
		}
		r := slotRange{}
		for _, b := range f.Blocks {
			sp := acc[b]
			lo, hi := 0, len(b.Instrs)-1
			switch {
			case sp == nil && !(from[b] && to[b]):
				continue
			case sp == nil:
			default:
				if !from[b] {
					lo = sp.first
				}
				if !to[b] {
					hi = sp.last
				}
			}
			r[b] = [2]int{lo, hi}
		}
		ranges[s] = r
	}
	return ranges
}
