package codegen

import (
	"maps"
	"slices"

	"github.com/bpfcc/bpfcc/codegen/internal/helpermem"
	"github.com/bpfcc/bpfcc/ir"
)

// A slot's live range: where its memory may hold a value that a later
// access reads. Two objects can share memory, even when their C blocks
// overlap, unless one is written where the other is live (LLVM's stack
// colouring asks the same of first uses): a variable declared at the top
// of a function but first used after an inlined helper's locals are dead,
// one whose last use comes before them (KubeArmor's READ_KERN
// temporaries), or two objects each filled on one arm of an if and read
// through one pointer after it (KubeArmor's sockv4 and sockv6). Scopes
// (ir.Scope.Disjoint, ir.EndedBefore) bound lifetimes by declarations;
// ranges bound them by accesses, and layoutSlots shares memory when
// either allows it: each is a safe over-approximation.
//
// Why the rule is safe: if A and B both held values some later access
// reads at a point p of an execution, take the later of the two writes
// that stored them, say B's at w. A's value was written before w and is
// read after p, so w lies between two accesses of A: in A's range.

// slotRange is, per block, the span of instruction indices [lo, hi] in
// which the slot is live, and the instructions that may write it.
type slotRange struct {
	live   map[*ir.Block][2]int
	writes []point
	// untracked: a scalar whose tracked value cannot matter
	// (untrackedScalars), which may take its C size in the frame.
	untracked bool
	// key: a scalar passed as a map's key (see layoutSlots).
	key bool
}

type point struct {
	b *ir.Block
	i int
}

// holds reports whether r's object is live at p.
func (r *slotRange) holds(p point) bool {
	x, ok := r.live[p.b]
	return ok && x[0] <= p.i && p.i <= x[1]
}

// interferes reports whether a and b must not share memory: one is
// written where the other is live.
func (a *slotRange) interferes(b *slotRange) bool {
	for _, w := range a.writes {
		if b.holds(w) {
			return true
		}
	}
	for _, w := range b.writes {
		if a.holds(w) {
			return true
		}
	}
	return false
}

// slotRanges returns the live range of each slot of f whose every access
// it can see: through instructions naming the slot, registers holding an
// address computed from it, and such addresses stored in other objects it
// sees. A slot whose address is stored anywhere else, returned, or passed
// to a BPF function, a kfunc, inline asm or a helper that keeps it has no
// range (nil): only its scope bounds its lifetime.
func slotRanges(f *ir.Func) map[*ir.Slot]*slotRange {
	var (
		// taint: the slots whose address a register may hold, by any of
		// its definitions (registers are not SSA: flow-insensitive).
		taint = slotSets[ir.Reg]{}
		// held: the slots whose address a slot's memory may hold.
		held    = slotSets[*ir.Slot]{}
		escaped = slotSet{}
		// impure: registers some definition of which is not an address
		// into a slot (a load, a call, a parameter...): they may point
		// elsewhere.
		impure = map[ir.Reg]bool{}
	)
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
	// targets are the slots an access's address may point into, and
	// whether it may point anywhere else.
	targets := func(in *ir.Instr) (slotSet, bool) {
		if in.Slot != nil {
			return slotSet{in.Slot: true}, false
		}
		if in.A.IsImm {
			return nil, true
		}
		t := taint[in.A.Reg]
		return t, len(t) == 0 || impure[in.A.Reg]
	}
	for changed := true; changed; {
		changed = false
		for _, b := range f.Blocks {
			for _, in := range b.Instrs {
				switch {
				case in.Op == ir.OpFrameAddr:
					changed = taint.add(in.Dst, in.Slot) || changed
				case in.Op == ir.OpLoad:
					// What the slots it reads hold.
					ts, _ := targets(in)
					for s := range ts {
						for h := range held[s] {
							changed = taint.add(in.Dst, h) || changed
						}
					}
				case in.Op == ir.OpStore && !in.B.IsImm:
					ts, _ := targets(in)
					for h := range taint[in.B.Reg] {
						for s := range ts {
							changed = held.add(s, h) || changed
						}
					}
				case in.Dst != 0:
					for _, r := range regs(in) {
						for s := range taint[r] {
							changed = taint.add(in.Dst, s) || changed
						}
					}
				}
			}
		}
	}

	for _, p := range f.Params {
		impure[p] = true
	}
	for changed := true; changed; {
		changed = false
		for _, b := range f.Blocks {
			for _, in := range b.Instrs {
				if in.Dst == 0 || impure[in.Dst] || in.Op == ir.OpFrameAddr {
					continue
				}
				pure := false
				if in.Op == ir.OpMov || in.Op == ir.OpALU {
					// An address plus or minus a scalar stays in its slot.
					for _, r := range regs(in) {
						if len(taint[r]) > 0 && !impure[r] {
							pure = true
						}
					}
				}
				if !pure {
					impure[in.Dst], changed = true, true
				}
			}
		}
	}

	// The accesses and writes of each slot, and the slots that escape.
	type span struct{ first, last int }
	access := map[*ir.Slot]map[*ir.Block]*span{}
	writes := map[*ir.Slot][]point{}
	touch := func(s *ir.Slot, b *ir.Block, i int, write bool) {
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
		if write {
			writes[s] = append(writes[s], point{b, i})
		}
	}
	escape := func(o ir.Operand) {
		if !o.IsImm {
			for s := range taint[o.Reg] {
				escaped[s] = true
			}
		}
	}
	for _, b := range f.Blocks {
		for i, in := range b.Instrs {
			// Computing, copying or comparing an address is no access:
			// an address taken early (hoisted, CSE'd) does not make the
			// object live from there. (Inline asm and BPF calls make the
			// objects they are given escape, below.)
			switch in.Op {
			case ir.OpLoad, ir.OpStore, ir.OpAtomic:
				ts, _ := targets(in)
				for s := range ts {
					touch(s, b, i, in.Op != ir.OpLoad)
				}
			case ir.OpCall:
				for k, a := range in.Args {
					if !a.IsImm {
						for s := range taint[a.Reg] {
							touch(s, b, i, !helpermem.Reads(in.Imm, k))
							// The objects whose addresses it holds are
							// within the helper's reach too (bpf_loop's
							// callback follows a pointer in its context:
							// selftests' pyperf600_bpf_loop).
							for h := range closure([]*ir.Slot{s}, func(x *ir.Slot) []*ir.Slot { return slices.Collect(maps.Keys(held[x])) }) {
								touch(h, b, i, true)
							}
						}
					}
				}
			}
			switch in.Op {
			case ir.OpStore:
				// An address stored where another alias may read it.
				if _, elsewhere := targets(in); elsewhere {
					escape(in.B)
				}
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
				if helpermem.Keeps(in.Imm) {
					for _, a := range in.Args {
						escape(a)
					}
				}
			}
		}
	}
	// An object holding the address of another that escapes may be read
	// through an alias: the address escapes with it.
	for changed := true; changed; {
		changed = false
		for s := range escaped {
			for h := range held[s] {
				if !escaped[h] {
					escaped[h], changed = true, true
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
	ranges := map[*ir.Slot]*slotRange{}
	for s, acc := range access {
		if escaped[s] || s.Volatile {
			continue
		}
		// from: blocks an access reaches at entry; to: blocks from whose
		// exit an access is reachable.
		accessed := slices.Collect(maps.Keys(acc))
		from := closure(accessed, (*ir.Block).Succs)
		to := closure(accessed, func(b *ir.Block) []*ir.Block { return preds[b] })
		r := &slotRange{live: map[*ir.Block][2]int{}, writes: writes[s]}
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
			r.live[b] = [2]int{lo, hi}
		}
		ranges[s] = r
	}
	untracked, keys := untrackedScalars(f, taint)
	for s, r := range ranges {
		r.untracked, r.key = untracked[s], keys[s]
	}
	return ranges
}

// slotSet is a set of stack objects.
type slotSet map[*ir.Slot]bool

// closure is what next reaches from start in one step or more.
func closure[T comparable](start []T, next func(T) []T) map[T]bool {
	seen := map[T]bool{}
	work := slices.Clone(start)
	for len(work) > 0 {
		x := work[len(work)-1]
		work = work[:len(work)-1]
		for _, y := range next(x) {
			if !seen[y] {
				seen[y] = true
				work = append(work, y)
			}
		}
	}
	return seen
}

// slotSets maps a register or an object to a set of objects; add reports
// a change.
type slotSets[K comparable] map[K]slotSet

func (m slotSets[K]) add(k K, s *ir.Slot) bool {
	if m[k] == nil {
		m[k] = slotSet{}
	}
	if m[k][s] {
		return false
	}
	m[k][s] = true
	return true
}
