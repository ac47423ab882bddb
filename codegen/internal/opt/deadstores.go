package opt

import (
	"slices"

	"github.com/bpfcc/bpfcc/codegen/internal/helpermem"
	"github.com/bpfcc/bpfcc/ir"
)

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

// fillKilledStores deletes stores to stack objects whose bytes a helper
// then fills whole before anything reads them, within a block: the zeroing
// before a read (`__builtin_memset(&_val, 0, sizeof(_val));
// bpf_probe_read_kernel(&_val, sizeof(_val), ptr)`, libbpf's and
// KubeArmor's READ_KERN) is overwritten, the helper writing zeros itself
// when it fails. clang keeps the zeroing: a helper is an opaque call to
// it. The object is then one only helpers write, which codegen can pack.
func fillKilledStores(f *ir.Func, taint map[ir.Reg]map[*ir.Slot]bool) {
	// Objects whose address may be read from elsewhere than an
	// instruction of the block: stored, kept, passed to a BPF function,
	// asm or a kfunc, returned; and volatile ones.
	unsafe := map[*ir.Slot]bool{}
	esc := func(o ir.Operand) {
		if !o.IsImm {
			for s := range taint[o.Reg] {
				unsafe[s] = true
			}
		}
	}
	type at struct {
		s   *ir.Slot
		off int64
	}
	frame := map[ir.Reg]at{} // registers every definition of which is one frame address
	mixed := map[ir.Reg]bool{}
	for _, p := range f.Params {
		mixed[p] = true
	}
	for _, s := range f.Slots {
		if s != nil && s.Volatile {
			unsafe[s] = true
		}
	}
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			switch {
			case in.Op == ir.OpStore:
				esc(in.B)
			case in.Op == ir.OpAtomic:
				esc(in.B)
				esc(in.C)
			case in.Op == ir.OpCallFunc || in.Op == ir.OpAsm || in.Op == ir.OpCall && helpermem.Keeps(in.Imm):
				for _, a := range in.Args {
					esc(a)
				}
			case in.Op == ir.OpRet:
				esc(in.A)
			}
			if in.Volatile && in.Slot != nil {
				unsafe[in.Slot] = true
			}
			if in.Dst != 0 {
				a := at{}
				if in.Op == ir.OpFrameAddr {
					a = at{in.Slot, in.Off}
				}
				if d, ok := frame[in.Dst]; ok && d != a || a.s == nil {
					mixed[in.Dst] = true
				}
				frame[in.Dst] = a
			}
		}
	}

	// killed: per object, the bytes written before any read from here to
	// the block's end (nothing is known past it).
	killed := map[*ir.Slot][]bool{}
	mark := func(s *ir.Slot, off, size int64, k bool) {
		if off < 0 || off+size > int64(s.Size) {
			if !k {
				delete(killed, s)
			}
			return
		}
		kb := killed[s]
		if kb == nil {
			if !k {
				return
			}
			kb = make([]bool, s.Size)
			killed[s] = kb
		}
		for i := off; i < off+size; i++ {
			kb[i] = k
		}
	}
	readAll := func(o ir.Operand) {
		if !o.IsImm {
			for s := range taint[o.Reg] {
				delete(killed, s)
			}
		}
	}
	dead := func(in *ir.Instr) bool {
		kb := killed[in.Slot]
		if kb == nil || in.Off < 0 || in.Off+int64(in.Size) > int64(len(kb)) {
			return false
		}
		for i := in.Off; i < in.Off+int64(in.Size); i++ {
			if !kb[i] {
				return false
			}
		}
		return true
	}
	for _, b := range f.Blocks {
		clear(killed)
		drop := map[*ir.Instr]bool{}
		for i := len(b.Instrs) - 1; i >= 0; i-- {
			in := b.Instrs[i]
			switch in.Op {
			case ir.OpStore:
				if in.Slot != nil && !unsafe[in.Slot] {
					if dead(in) {
						drop[in] = true
					} else {
						mark(in.Slot, in.Off, int64(in.Size), true)
					}
				}
			case ir.OpLoad, ir.OpAtomic:
				if in.Slot != nil {
					mark(in.Slot, in.Off, int64(in.Size), false)
				} else {
					readAll(in.A)
				}
			case ir.OpCall:
				// What it fills is written before, what else it is
				// given is read: walking back, the reads come last.
				fill, fills := helpermem.Fills(in.Imm)
				fills = fills && fill.Whole
				for k, a := range in.Args {
					if fills && k == fill.Ptr && !a.IsImm && !mixed[a.Reg] && fill.Size < len(in.Args) && in.Args[fill.Size].IsImm {
						if at := frame[a.Reg]; at.s != nil && !unsafe[at.s] {
							mark(at.s, at.off, in.Args[fill.Size].Imm, true)
						}
					}
				}
				for k, a := range in.Args {
					if !fills || k != fill.Ptr {
						readAll(a)
					}
				}
			case ir.OpCallFunc, ir.OpAsm:
				for _, a := range in.Args {
					readAll(a)
				}
			}
		}
		if len(drop) > 0 {
			note := ""
			b.Instrs = slices.DeleteFunc(b.Instrs, func(in *ir.Instr) bool {
				if drop[in] {
					note = ir.JoinNotes(note, in.Note) // moves to the next instruction
					return true
				}
				in.Note, note = ir.JoinNotes(note, in.Note), ""
				return false
			})
		}
	}
}
