package opt

import (
	"slices"

	"github.com/bpfcc/bpfcc/ir"
)

// mergeStores rewrites each run of constant stores to stack objects (stores
// with nothing between them that reads or writes memory) as the fewest
// aligned stores that leave the same bytes. An initializer such as
// `struct p x = { .name = "skcipher" }` is lowered as zeroing stores
// followed by one byte store per character, zeros included: the bytes a
// later store of the run rewrites need no earlier store, and "skcipher"
// becomes two 4-byte stores instead of eight (and a zeroing store).
//
// A run is rewritten only when that takes fewer instructions. An 8-byte
// store whose constant needs a 64-bit immediate costs three instructions
// (ld_imm64 and the store), so such bytes are stored as two 4-byte halves,
// unless a single 8-byte store of the run wrote exactly them: the verifier
// keeps an 8-byte constant spill as a known value, which two halves are
// not.
func mergeStores(f *ir.Func, _ *passCtx) {
	for _, b := range f.Blocks {
		var out []*ir.Instr
		start := -1 // the current run's first store, or -1
		for i, in := range b.Instrs {
			switch {
			case constSlotStore(in):
				if start < 0 {
					start = i
				}
				continue
			case start < 0:
				out = append(out, in)
				continue
			case !touchesMemory(in):
				continue
			}
			out = append(out, mergeRun(b.Instrs[start:i])...)
			out = append(out, in)
			start = -1
		}
		if start >= 0 {
			out = append(out, mergeRun(b.Instrs[start:])...)
		}
		b.Instrs = out
	}
}

// constSlotStore reports whether in stores a constant to a stack object
// that may be rewritten.
func constSlotStore(in *ir.Instr) bool {
	return in.Op == ir.OpStore && in.Slot != nil && !in.Slot.Volatile && !in.Volatile && in.B.IsImm && in.Core == nil &&
		in.Off >= 0 && in.Off+int64(in.Size) <= int64(in.Slot.Size)
}

// touchesMemory reports whether in may read or write memory (or end the
// block): a run of stores cannot be moved across it.
func touchesMemory(in *ir.Instr) bool {
	switch in.Op {
	case ir.OpLoad, ir.OpStore, ir.OpAtomic, ir.OpCall, ir.OpCallFunc, ir.OpAsm, ir.OpJump, ir.OpBranch, ir.OpRet:
		return true
	}
	return false
}

// nonStores is instrs without the constant slot stores (which mergeRun
// has replaced): the other instructions between them touch no memory.
func nonStores(instrs []*ir.Instr) []*ir.Instr {
	var out []*ir.Instr
	for _, in := range instrs {
		if !constSlotStore(in) {
			out = append(out, in)
		}
	}
	return out
}

// storeCost is the instructions a constant store takes.
func storeCost(size int, v int64) int {
	if size == 8 && !fitsS32(v) {
		return 3
	}
	return 1
}

func fitsS32(v int64) bool { return v == int64(int32(v)) }

// mergeRun returns what replaces seg, a run of constant stores to stack
// objects and instructions that touch no memory: seg itself, or when that
// takes fewer instructions, the other instructions followed by the fewest
// stores that leave the same bytes.
func mergeRun(seg []*ir.Instr) []*ir.Instr {
	type key struct {
		slot *ir.Slot
		off  int64
	}
	bytes := map[key]byte{}
	// whole8 holds the 8-byte stores of the run whose bytes no later store
	// of the run changed.
	whole8 := map[key]bool{}
	var slots []*ir.Slot
	old := 0
	var run []*ir.Instr
	for _, in := range seg {
		if constSlotStore(in) {
			run = append(run, in)
		}
	}
	if len(run) < 2 {
		return seg
	}
	for _, in := range run {
		old += storeCost(in.Size, in.B.Imm)
		if !slices.Contains(slots, in.Slot) {
			slots = append(slots, in.Slot)
		}
		for j := 0; j < in.Size; j++ {
			k := key{in.Slot, in.Off + int64(j)}
			bytes[k] = byte(in.B.Imm >> (8 * j))
			delete(whole8, key{in.Slot, k.off &^ 7})
		}
		if in.Size == 8 {
			whole8[key{in.Slot, in.Off}] = true
		}
	}
	first := run[0]
	var stores []*ir.Instr
	cost := 0
	for _, s := range slots {
		// The frame places objects of 8 bytes or more 8-byte aligned, others
		// at their own alignment; the verifier wants aligned stack accesses.
		align := int64(max(s.Align, 1))
		if s.Size >= 8 {
			align = max(align, 8)
		}
		for off := int64(0); off < int64(s.Size); {
			if _, ok := bytes[key{s, off}]; !ok {
				off++
				continue
			}
			for size := int64(8); size >= 1; size /= 2 {
				if size > align || off%size != 0 || off+size > int64(s.Size) {
					continue
				}
				var v uint64
				known := true
				for j := size - 1; j >= 0; j-- {
					c, ok := bytes[key{s, off + j}]
					if !ok {
						known = false
						break
					}
					v = v<<8 | uint64(c)
				}
				if !known {
					continue
				}
				imm := int64(v)
				if size == 4 || size == 2 || size == 1 {
					imm = ir.EvalExt(imm, int(size)*8, true)
				}
				if size == 8 && !fitsS32(imm) && !whole8[key{s, off}] {
					continue
				}
				cost += storeCost(int(size), imm)
				stores = append(stores, &ir.Instr{Op: ir.OpStore, Slot: s, Off: off, Size: int(size),
					B: ir.Imm(imm), Space: first.Space, Pos: first.Pos})
				off += size
				break
			}
		}
	}
	if cost >= old {
		return seg
	}
	return append(nonStores(seg), stores...)
}
