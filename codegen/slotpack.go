package codegen

import (
	"github.com/cilium/ebpf/asm"

	"github.com/bpfcc/bpfcc/ir"
)

// A scalar whose address is taken gets a word of its own (lower: the
// verifier tracks a value stored to a word's low half, and forgets it when
// the other half is written). A scalar that no instruction of the program
// stores to, only helpers fill (`u32 pid; bpf_probe_read_kernel(&pid, 4,
// ...)`), holds nothing the verifier tracks: a helper's write leaves its
// bytes unknown. Two such scalars may share a word, as clang packs 4-byte
// objects two to a word: KubeArmor's and tracee's inlined READ_KERN
// temporaries, each a word, put frames over BPF's 512 bytes where
// clang's fit.

// helperFills gives, per helper, the argument that points at the memory it
// writes and the argument that is that memory's size.
var helperFills = map[int64][2]int{
	int64(asm.FnProbeRead):          {0, 1},
	int64(asm.FnProbeReadStr):       {0, 1},
	int64(asm.FnProbeReadKernel):    {0, 1},
	int64(asm.FnProbeReadUser):      {0, 1},
	int64(asm.FnProbeReadKernelStr): {0, 1},
	int64(asm.FnProbeReadUserStr):   {0, 1},
	int64(asm.FnCopyFromUser):       {0, 1},
	int64(asm.FnGetCurrentComm):     {0, 1},
	int64(asm.FnSkbLoadBytes):       {2, 3},
}

// helperFilled returns the scalars of f (ir.Slot.Scalar) that only helpers
// write, each at its start and within its C size, and that instructions
// read within that size: they may take their C size in the frame. taint
// is the objects each register may point into (slotRanges).
func helperFilled(f *ir.Func, taint slotSets[ir.Reg]) slotSet {
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

	ok := slotSet{}
	for _, s := range f.Slots {
		if s != nil && s.Scalar > 0 && s.Scalar < 8 && !s.Volatile {
			ok[s] = true
		}
	}
	refuse := func(o ir.Operand) {
		if !o.IsImm {
			for s := range taint[o.Reg] {
				delete(ok, s)
			}
		}
	}
	within := func(s *ir.Slot, off, size int64) {
		if off < 0 || off+size > int64(s.Scalar) {
			delete(ok, s)
		}
	}
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			switch in.Op {
			case ir.OpLoad:
				if in.Slot != nil {
					within(in.Slot, in.Off, int64(in.Size))
				} else if a, known := addr(in.A); known {
					within(a.s, a.off+in.Off, int64(in.Size))
				} else {
					refuse(in.A)
				}
			case ir.OpStore, ir.OpAtomic:
				if in.Slot != nil {
					delete(ok, in.Slot)
				}
				refuse(in.A)
			case ir.OpCall:
				fill, fills := helperFills[in.Imm]
				for k, a := range in.Args {
					if fills && k == fill[0] && fill[1] < len(in.Args) && in.Args[fill[1]].IsImm {
						if at, known := addr(a); known {
							within(at.s, at.off, in.Args[fill[1]].Imm)
							if at.off != 0 {
								delete(ok, at.s)
							}
							continue
						}
					}
					refuse(a)
				}
			}
		}
	}
	return ok
}
