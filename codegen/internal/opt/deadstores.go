package opt

import "github.com/bpfcc/bpfcc/ir"

// deadStores deletes stores to non-escaping slots that nothing loads: a
// store through an address that may point into several objects when none
// of them is ever read, a store to a known object when no load reads any of
// its bytes. A struct local of which the program reads one member, such as
// `pkt.vlan_outer` after a parser filled in all of them, keeps only the
// stores of that member (and those of what overlaps it).
func (va *valueAnalysis) deadStores() {
	read := map[*ir.Slot]bool{}        // some load may read any byte
	readBytes := map[*ir.Slot][]bool{} // the bytes loads at known offsets read
	for _, b := range va.f.Blocks {
		for _, in := range b.Instrs {
			if in.Op != ir.OpLoad && in.Op != ir.OpAtomic {
				continue
			}
			if in.Slot != nil {
				if in.Op == ir.OpAtomic || in.Off < 0 || in.Off+int64(in.Size) > int64(in.Slot.Size) {
					read[in.Slot] = true
					continue
				}
				rb := readBytes[in.Slot]
				if rb == nil {
					rb = make([]bool, in.Slot.Size)
					readBytes[in.Slot] = rb
				}
				for i := in.Off; i < in.Off+int64(in.Size); i++ {
					rb[i] = true
				}
			} else if !in.A.IsImm {
				for s := range va.taint[in.A.Reg] {
					read[s] = true
				}
			}
		}
	}
	dead := func(in *ir.Instr) bool {
		if in.Op != ir.OpStore {
			return false
		}
		if in.Slot != nil {
			if !va.tracked(in.Slot) || read[in.Slot] {
				return false
			}
			rb := readBytes[in.Slot]
			for i := max(in.Off, 0); i < in.Off+int64(in.Size) && i < int64(len(rb)); i++ {
				if rb[i] {
					return false
				}
			}
			return true
		}
		if in.A.IsImm || len(va.taint[in.A.Reg]) == 0 {
			return false
		}
		for s := range va.taint[in.A.Reg] {
			if !va.tracked(s) || read[s] || readBytes[s] != nil {
				return false
			}
		}
		return true
	}
	for _, b := range va.f.Blocks {
		kept := b.Instrs[:0]
		note := ""
		for _, in := range b.Instrs {
			if dead(in) {
				note = ir.JoinNotes(note, in.Note) // moves to the next instruction
				continue
			}
			in.Note, note = ir.JoinNotes(note, in.Note), ""
			kept = append(kept, in)
		}
		b.Instrs = kept
	}
}
