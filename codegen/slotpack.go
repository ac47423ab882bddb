package codegen

import (
	"github.com/bpfcc/bpfcc/codegen/internal/helpermem"
	"github.com/bpfcc/bpfcc/ir"
)

// A scalar whose address is taken gets a word of its own (lower: the
// verifier tracks a value stored to a word's low half, and forgets it when
// the other half is written). A scalar that no instruction of the program
// stores to, only helpers fill (`u32 pid; bpf_probe_read_kernel(&pid, 4,
// ...)`), holds nothing the verifier tracks: a helper's write leaves its
// bytes unknown; one the program stores to but never loads (a map key, a
// character handed to a helper) holds nothing the program reads back.
// Two such scalars may share a word, as clang packs small objects:
// KubeArmor's and tracee's inlined READ_KERN temporaries and one-character
// strings, each a word, put frames over BPF's 512 bytes where clang's fit.

// untrackedScalars returns the scalars of f (ir.Slot.Scalar) whose value
// in memory the verifier's tracking cannot matter to: only helpers write
// them (a helper's write leaves the bytes unknown), or no instruction
// reads them back (helpers read them: a map key, a string's bytes). Every
// access is at the object's start, within its C size, or is a helper's
// argument it reads or fills. They may take their C size in the frame.
// taint is the objects each register may point into (slotRanges).
//
// It also returns the scalars passed as a map's key (a loop counter used
// as an array map's key): see layoutSlots.
func untrackedScalars(f *ir.Func, taint slotSets[ir.Reg]) (ok, keys slotSet) {
	// addr gives the object and offset a register holds when every
	// definition of it is the same frame address.
	type at struct {
		s   *ir.Slot
		off int64
	}
	defs := map[ir.Reg]at{}
	mixed := map[ir.Reg]bool{}
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			if in.Dst == 0 {
				continue
			}
			a := at{}
			if in.Op == ir.OpFrameAddr {
				a = at{in.Slot, in.Off}
			}
			if d, ok := defs[in.Dst]; ok && d != a || a.s == nil {
				mixed[in.Dst] = true
			}
			defs[in.Dst] = a
		}
	}
	for _, p := range f.Params {
		mixed[p] = true
	}
	addr := func(o ir.Operand) (at, bool) {
		if o.IsImm || mixed[o.Reg] {
			return at{}, false
		}
		a, ok := defs[o.Reg]
		return a, ok
	}

	ok, keys = slotSet{}, slotSet{}
	for _, s := range f.Slots {
		if s != nil && s.Scalar > 0 && s.Scalar < 8 && !s.Volatile {
			ok[s] = true
		}
	}
	stored, loaded := slotSet{}, slotSet{}
	refuse := func(o ir.Operand) {
		if !o.IsImm {
			for s := range taint[o.Reg] {
				delete(ok, s)
			}
		}
	}
	// access checks an access of size bytes at a known place.
	access := func(s *ir.Slot, off, size int64, seen slotSet) {
		if off < 0 || off+size > int64(s.Scalar) {
			delete(ok, s)
		}
		if seen != nil {
			seen[s] = true
		}
	}
	known := func(in *ir.Instr) (at, bool) {
		if in.Slot != nil {
			return at{in.Slot, in.Off}, true
		}
		a, k := addr(in.A)
		a.off += in.Off
		return a, k
	}
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			switch in.Op {
			case ir.OpLoad, ir.OpStore:
				seen := loaded
				if in.Op == ir.OpStore {
					seen = stored
				}
				if a, k := known(in); k {
					access(a.s, a.off, int64(in.Size), seen)
				} else {
					refuse(in.A)
				}
			case ir.OpAtomic:
				if in.Slot != nil {
					delete(ok, in.Slot)
				}
				refuse(in.A)
			case ir.OpCall:
				fill, fills := helpermem.Fills(in.Imm)
				for k, a := range in.Args {
					at, known := addr(a)
					switch {
					case !known:
						refuse(a)
					case fills && k == fill.Ptr && fill.Size < len(in.Args) && in.Args[fill.Size].IsImm:
						access(at.s, at.off, in.Args[fill.Size].Imm, nil)
						if at.off != 0 {
							delete(ok, at.s)
						}
					case helpermem.Reads(in.Imm, k):
						if at.off != 0 {
							delete(ok, at.s)
						}
						if helpermem.MapKey(in.Imm, k) {
							keys[at.s] = true
						}
					default:
						refuse(a)
					}
				}
			}
		}
	}
	for s := range ok {
		if stored[s] && loaded[s] {
			delete(ok, s)
		}
	}
	return ok, keys
}
