package opt

import (
	"slices"

	"github.com/bpfcc/bpfcc/ir"
)

// widenCopies rewrites a copy between two stack objects made of narrow
// loads and stores (each loaded value, through copies, stored once, at the
// same distance from where it was read) as the widest aligned loads and
// stores of the same bytes, placed at the copy's last store. A struct
// returned by value from an inlined function is copied byte by byte when
// its type is byte-aligned, and once promote has removed the object in
// between, all its bytes are loaded before any is stored: tracee's
// get_unix_sock_addr (a 110-byte sockaddr_un) held 110 registers across
// the copy and spilled them, a frame over 512 bytes where clang's is 272;
// elastic/ebpf's packed event key was copied in 8 byte loads and stores.
//
// The wide copy reads the source at the last store, so nothing between
// the first load and the last store may write memory but the copy's own
// stores, and nothing may read the destination bytes before they are all
// written. Stack objects of 8 bytes or more are 8-aligned (layoutSlots),
// smaller ones at their own alignment.
func widenCopies(f *ir.Func, _ *passCtx) {
	uses := useCounts(f)
	for _, b := range f.Blocks {
		for widenCopiesIn(f, b, uses) {
		}
		for joinShiftedStores(b) {
		}
		joinByteLoads(b)
	}
}

// joinByteLoads rewrites a value assembled from byte loads of consecutive
// bytes of a stack object (b0 | b1 << 8 | ...: a 64-bit member of a
// packed struct read) as one load, where the object's alignment allows
// it and no store between the first byte load and the assembled value
// can change the bytes.
func joinByteLoads(b *ir.Block) {
	type byteSrc struct {
		slot *ir.Slot
		off  int64
		at   int // the load's index
	}
	// parts maps a register to the bytes it is assembled from, by byte
	// position; a register absent holds no such value.
	parts := map[ir.Reg]map[int64]byteSrc{}
	lastStore := -1
	for i, in := range b.Instrs {
		var v map[int64]byteSrc
		switch {
		case in.Op == ir.OpLoad && in.Size == 1 && !in.Signed && plainSlotAccess(in):
			v = map[int64]byteSrc{0: {in.Slot, in.Off, i}}
		case in.Op == ir.OpALU && !in.W32 && in.ALU == ir.Lsh && !in.A.IsImm && in.B.IsImm && in.B.Imm%8 == 0 && in.B.Imm > 0 && in.B.Imm < 64:
			if a := parts[in.A.Reg]; len(a) == 1 && a[0].slot != nil {
				v = map[int64]byteSrc{in.B.Imm / 8: a[0]}
			}
		case in.Op == ir.OpALU && !in.W32 && in.ALU == ir.Or && !in.A.IsImm && !in.B.IsImm:
			v = disjointUnion(parts[in.A.Reg], parts[in.B.Reg])
		}
		if in.Op == ir.OpStore || in.Op == ir.OpAtomic || in.Op == ir.OpCall || in.Op == ir.OpCallFunc || in.Op == ir.OpAsm {
			lastStore = i
		}
		if in.Dst == 0 {
			continue
		}
		delete(parts, in.Dst)
		if v == nil {
			continue
		}
		parts[in.Dst] = v
		n := int64(len(v))
		if in.Op != ir.OpALU || in.ALU != ir.Or || (n != 2 && n != 4 && n != 8) {
			continue
		}
		first, ok := v[0]
		for k := int64(0); ok && k < n; k++ {
			x, has := v[k]
			ok = has && x.slot == first.slot && x.off == first.off+k && x.at > lastStore
		}
		if ok && first.off%n == 0 && slotAlign(first.slot) >= n {
			*in = ir.Instr{Op: ir.OpLoad, Dst: in.Dst, Slot: first.slot, Off: first.off, Size: int(n), Space: ir.SpaceStack, Pos: in.Pos}
		}
	}
}

// joinShiftedStores rewrites the byte stores of one register's bytes to
// consecutive bytes of a stack object (store r, then r >> 8, r >> 16, ...:
// a 64-bit member of a packed struct) as one store of the register, where
// the object's alignment allows it, at the last of them: cilium's packed
// union v6addr, copied as two u64 into an 8-aligned key, was 16 byte
// stores per address.
func joinShiftedStores(b *ir.Block) bool {
	// defBefore is the index of the last definition of r before j, -1
	// if none in the block.
	defBefore := func(j int, r ir.Reg) int {
		for k := j - 1; k >= 0; k-- {
			if b.Instrs[k].Dst == r {
				return k
			}
		}
		return -1
	}
	// byteOf reads the value stored at j as byte k of a register r: r
	// itself (k 0), or r >> 8k computed at index at (-1 for k 0).
	byteOf := func(j int) (r ir.Reg, k int64, at int) {
		v := b.Instrs[j].B
		if v.IsImm {
			return 0, -1, -1
		}
		if di := defBefore(j, v.Reg); di >= 0 {
			d := b.Instrs[di]
			if d.Op == ir.OpALU && !d.W32 && (d.ALU == ir.Rsh || d.ALU == ir.Arsh) && !d.A.IsImm && d.B.IsImm && d.B.Imm%8 == 0 && d.B.Imm > 0 && d.B.Imm < 64 {
				return d.A.Reg, d.B.Imm / 8, di
			}
		}
		return v.Reg, 0, -1
	}
	for i, in := range b.Instrs {
		if in.Op != ir.OpStore || in.Size != 1 || !plainSlotAccess(in) {
			continue
		}
		r, k, _ := byteOf(i)
		if k != 0 {
			continue
		}
		// The stores of bytes 1, 2, ... of r at the next addresses, with
		// no other memory access in between, each shifted from the value
		// r has at i (not redefined between the shift and i, nor after i).
		rdef := defBefore(i, r)
		at := map[int64]int{0: i}
		for j := i + 1; j < len(b.Instrs); j++ {
			x := b.Instrs[j]
			if x.Op == ir.OpStore && x.Size == 1 && x.Slot == in.Slot && plainSlotAccess(x) {
				if xr, xk, shift := byteOf(j); xr == r && xk > 0 && x.Off == in.Off+xk && shift > rdef {
					if _, dup := at[xk]; !dup {
						at[xk] = j
						continue
					}
				}
			}
			if touchesMemory(x) || x.Dst == r {
				break
			}
		}
		n := int64(len(at))
		for n > 1 && (n&(n-1) != 0 || in.Off%n != 0 || slotAlign(in.Slot) < n || !allBytes(at, n)) {
			n /= 2
		}
		if n < 2 {
			continue
		}
		drop := map[int]bool{}
		end := i
		for k := int64(0); k < n; k++ {
			drop[at[k]] = true
			end = max(end, at[k])
		}
		wide := &ir.Instr{Op: ir.OpStore, Slot: in.Slot, Off: in.Off, B: ir.R(r), Size: int(n), Space: ir.SpaceStack, Pos: b.Instrs[end].Pos}
		var out []*ir.Instr
		for j, x := range b.Instrs {
			switch {
			case j == end:
				out = append(out, wide)
			case drop[j]:
			default:
				out = append(out, x)
			}
		}
		b.Instrs = out
		return true
	}
	return false
}

// allBytes reports whether at holds bytes 0 to n-1.
func allBytes(at map[int64]int, n int64) bool {
	for k := int64(0); k < n; k++ {
		if _, ok := at[k]; !ok {
			return false
		}
	}
	return true
}

// copyElem is one byte range of a copy: the load at index ld reads
// src+off, the store at index st writes dst+off+delta.
type copyElem struct {
	ld, st int
	off    int64
	size   int
}

func widenCopiesIn(f *ir.Func, b *ir.Block, uses map[ir.Reg]int) bool {
	type source struct {
		at   int // the load's index
		slot *ir.Slot
		off  int64
		size int
	}
	src := map[ir.Reg]source{}
	type key struct {
		src, dst *ir.Slot
		delta    int64
	}
	groups := map[key][]copyElem{}
	var order []key
	for i, in := range b.Instrs {
		switch {
		case in.Op == ir.OpLoad && plainSlotAccess(in) && !in.Signed:
			src[in.Dst] = source{i, in.Slot, in.Off, in.Size}
			continue
		case in.Op == ir.OpMov && !in.A.IsImm && uses[in.A.Reg] == 1:
			if s, ok := src[in.A.Reg]; ok {
				src[in.Dst] = s
				continue
			}
		case in.Op == ir.OpStore && plainSlotAccess(in) && !in.B.IsImm && uses[in.B.Reg] == 1:
			if s, ok := src[in.B.Reg]; ok && s.size == in.Size && s.slot != in.Slot {
				k := key{s.slot, in.Slot, in.Off - s.off}
				if groups[k] == nil {
					order = append(order, k)
				}
				groups[k] = append(groups[k], copyElem{ld: s.at, st: i, off: s.off, size: in.Size})
			}
		}
		if in.Dst != 0 {
			delete(src, in.Dst)
		}
	}
	for _, k := range order {
		for _, run := range contiguousRuns(groups[k]) {
			if len(run) < 2 || !widenRun(f, b, k.src, k.dst, k.delta, run) {
				continue
			}
			return true // indices moved: scan the block again
		}
	}
	return false
}

// plainSlotAccess reports whether in reads or writes bytes of a stack
// object that may be rewritten, within it.
func plainSlotAccess(in *ir.Instr) bool {
	return in.Slot != nil && !in.Slot.Volatile && !in.Volatile && in.Core == nil &&
		in.Off >= 0 && in.Off+int64(in.Size) <= int64(in.Slot.Size)
}

// contiguousRuns splits copy elements into runs of adjacent byte ranges,
// by source offset.
func contiguousRuns(es []copyElem) [][]copyElem {
	es = slices.Clone(es)
	slices.SortFunc(es, func(a, b copyElem) int { return int(a.off - b.off) })
	var runs [][]copyElem
	for i := 0; i < len(es); {
		j := i + 1
		for j < len(es) && es[j].off == es[j-1].off+int64(es[j-1].size) {
			j++
		}
		runs = append(runs, es[i:j])
		i = j
	}
	return runs
}

// slotAlign is the alignment layoutSlots gives a stack object.
func slotAlign(s *ir.Slot) int64 {
	if s.Size >= 8 {
		return 8
	}
	return int64(max(s.Align, 1))
}

// widenRun replaces the stores of run (a copy from src to dst+delta) by
// wider loads and stores at its last store, when that needs fewer
// instructions and nothing in between touches the bytes.
func widenRun(f *ir.Func, b *ir.Block, src, dst *ir.Slot, delta int64, run []copyElem) bool {
	first, last := len(b.Instrs), 0
	own := map[int]bool{}
	for _, e := range run {
		first, last = min(first, e.ld), max(last, e.st)
		own[e.st] = true
	}
	lo, hi := run[0].off, run[len(run)-1].off+int64(run[len(run)-1].size)
	for i := first; i <= last; i++ {
		in := b.Instrs[i]
		if own[i] {
			continue
		}
		switch in.Op {
		case ir.OpStore, ir.OpAtomic, ir.OpCall, ir.OpCallFunc, ir.OpAsm:
			return false
		case ir.OpLoad:
			if in.Slot == nil && i > first {
				return false // through a pointer: it may read dst
			}
			if in.Slot == dst && in.Off < hi+delta && lo+delta < in.Off+int64(in.Size) {
				return false
			}
		}
	}
	// The widest aligned pieces: both addresses share their alignment.
	ga := min(slotAlign(src), slotAlign(dst))
	var pieces [][2]int64 // offset, size
	for off := lo; off < hi; {
		size := int64(8)
		for size > 1 && ((off%ga+ga)%size != 0 || (off+delta)%size != 0 || off+size > hi || size > ga) {
			size /= 2
		}
		pieces = append(pieces, [2]int64{off, size})
		off += size
	}
	if len(pieces) >= len(run) {
		return false
	}
	pos := b.Instrs[last].Pos
	var wide []*ir.Instr
	for _, p := range pieces {
		r := f.NewReg()
		wide = append(wide,
			&ir.Instr{Op: ir.OpLoad, Dst: r, Slot: src, Off: p[0], Size: int(p[1]), Space: ir.SpaceStack, Pos: pos},
			&ir.Instr{Op: ir.OpStore, Slot: dst, Off: p[0] + delta, B: ir.R(r), Size: int(p[1]), Space: ir.SpaceStack, Pos: pos})
	}
	var out []*ir.Instr
	for i, in := range b.Instrs {
		switch {
		case i == last:
			out = append(out, wide...)
		case own[i]:
			// Replaced; its load and copies are left to dce.
		default:
			out = append(out, in)
		}
	}
	b.Instrs = out
	return true
}

// disjointUnion is the union of two maps of the bytes a value is or-ed
// together from, nil if either is nil or both name a byte position.
func disjointUnion[V any](a, b map[int64]V) map[int64]V {
	if a == nil || b == nil {
		return nil
	}
	u := make(map[int64]V, len(a)+len(b))
	for k, x := range a {
		u[k] = x
	}
	for k, x := range b {
		if _, dup := u[k]; dup {
			return nil
		}
		u[k] = x
	}
	return u
}
