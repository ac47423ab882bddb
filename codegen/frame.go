package codegen

import (
	"github.com/bpfcc/bpfcc/ir"
)

// layoutSlots places f's stack objects below the frame pointer, in order,
// each at a multiple of its alignment (at least 8 for objects of 8 bytes or
// more), below the objects placed before it that can be alive at the same
// time (see ir.Scope.Disjoint and ir.EndedBefore). It returns each
// slot's offset from R10 (negative) and the bytes used, rounded up to 8 so
// that spill slots below stay aligned.
func layoutSlots(f *ir.Func) (map[*ir.Slot]int, int) {
	type placed struct {
		s         *ir.Slot
		lo, hi    int // depth below the frame pointer: bytes [fp-hi, fp-lo)
		untracked bool
	}
	var done []placed
	ranges := slotRanges(f)
	offs := map[*ir.Slot]int{}
	frame := 0
	used := map[*ir.Slot]bool{}
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			if in.Slot != nil {
				used[in.Slot] = true
			}
		}
	}
	for _, s := range f.Slots {
		if s == nil || !used[s] {
			// Optimised away (forwarded stores, inlined copies): no memory.
			continue
		}
		align := max(s.Align, 1)
		if s.Size >= 8 {
			align = max(align, 8)
		}
		size := max(s.Size, 0)
		// A scalar whose tracked value cannot matter takes its C size, and
		// shares its word only with others such (see untrackedScalars).
		untracked := ranges[s] != nil && ranges[s].untracked
		if untracked {
			size, align = s.Scalar, s.Scalar
		}
		// Below every object placed so far that may be alive at the same
		// time; objects of disjoint C blocks share memory, as clang's stack
		// colouring lets them. (Holes are not filled.)
		// An object whose block ended before the other was declared
		// shares its memory too, as clang's lifetime markers let it
		// (KubeArmor's READ_KERN: a statement expression's struct
		// temporary, then a variable declared after it: 720 bytes of
		// frame against clang's 480).
		// And objects neither of which is written where the other is
		// live (slotRanges) share it, whatever their blocks.
		base := 0
		var live []placed
		for _, p := range done {
			if !s.Scope.Disjoint(p.s.Scope) && !ir.EndedBefore(p.s, s) && !ir.EndedBefore(s, p.s) &&
				(ranges[s] == nil || ranges[p.s] == nil || ranges[s].interferes(ranges[p.s])) {
				base = max(base, p.hi)
				live = append(live, p)
			}
		}
		hi := alignUp(base+size, align)
		if size < 8 {
			// A word is shared only by such scalars, or by none.
			word := (hi - size) / 8 * 8
			for _, p := range live {
				if p.hi > word && p.untracked != untracked {
					hi = alignUp(alignUp(base, 8)+size, align)
					break
				}
			}
		}
		done = append(done, placed{s, hi - size, hi, untracked})
		offs[s] = -hi
		if size == 8 && ranges[s] != nil && ranges[s].key && s.Scalar > 0 && s.Scalar <= 4 {
			// A map key the program also stores and loads (a counter)
			// sits in its word's upper half, where clang's layout puts
			// a lone 4-byte object and the verifier keeps no value: an
			// aligned one is a constant the verifier marks precise for
			// an array map's lookup, and a loop's states then differ
			// in every count (bpf-developer-tutorial's 27-replace:
			// over 1M instructions; clang's 247,924).
			offs[s] = -hi + 4
		}
		frame = max(frame, hi)
	}
	return offs, alignUp(frame, 8)
}

func alignUp(n, a int) int {
	if a <= 1 {
		return n
	}
	return (n + a - 1) / a * a
}

// reachableTrap reports the first trap call left in f: a
// __builtin_trap() that optimisation left reachable, or a construct lower
// could not compile that optimisation did not remove (its Note says which).
func reachableTrap(f *ir.Func) error {
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			if in.Op != ir.OpCallFunc || in.Sym != ir.TrapSym {
				continue
			}
			pos := in.Pos
			if pos.Line <= 0 {
				pos = f.Pos
			}
			if in.Note != "" {
				return errorAt(pos, "%s", in.Note)
			}
			return errorAt(pos, "__builtin_trap() is reachable: BPF has no trap instruction (clang: \"A call to built-in function 'abort' is not supported\")")
		}
	}
	return nil
}
