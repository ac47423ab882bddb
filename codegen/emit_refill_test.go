package codegen

import (
	"testing"

	"github.com/cilium/ebpf/asm"
)

// A spill slot's fill right after the store of the same register to it is
// not emitted; one into another register, from another word, after an
// instruction in between, or not spill code (a volatile local's reload)
// is.
func TestAssignBlockDropsRefills(t *testing.T) {
	const a, b, c = firstVirt, firstVirt + 1, firstVirt + 2
	store := func(src int, off int16) minst {
		return minst{ins: asm.StoreMem(asm.R10, off, 0, asm.DWord), dst: fp, src: src, flags: fSrcUse, spill: true}
	}
	fill := func(dst int, off int16) minst {
		return minst{ins: asm.LoadMem(0, asm.R10, off, asm.DWord), dst: dst, src: fp, flags: fDstDef, spill: true}
	}
	add := minst{ins: asm.Add.Imm(0, 1), dst: a, src: noReg, flags: fDstUse | fDstDef}
	blk := mblock{insns: []minst{
		store(a, -8), fill(b, -8), // same register: dropped
		store(a, -16), fill(c, -16), // another register: kept
		store(a, -24), fill(b, -32), // another word: kept
		store(a, -40), add, fill(b, -40), // not adjacent: kept
		store(a, -48), {ins: asm.LoadMem(0, asm.R10, -48, asm.DWord), dst: b, src: fp, flags: fDstDef}, // a local's reload: kept
	}}
	color := make([]int, firstVirt+3)
	for r := range color {
		color[r] = r
	}
	color[a], color[b], color[c] = 3, 3, 4
	e := assignBlock(&blk, color)
	if got := len(e.body); got != 10 {
		t.Fatalf("%d instructions emitted, want 10 (one fill dropped): %v", got, e.body)
	}
	if in := e.body[1].ins; !in.OpCode.Class().IsStore() || in.Offset != -16 {
		t.Errorf("second instruction %v, want the store to -16", in)
	}
}
