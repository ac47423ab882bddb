package codegen

import (
	"fmt"

	"github.com/bpfcc/bpfcc/codegen/internal/regalloc"
	"github.com/cilium/ebpf/asm"
)

// colourOrder is the order registers are tried in: the caller-saved
// argument registers first, callee-saved ones last.
var colourOrder = regalloc.Preference{1, 2, 3, 4, 5, 0, 6, 7, 8, 9}

const maxAllocRounds = 24

// allocate assigns physical registers, inserting spill code as needed. It
// returns the colour of every machine register.
func allocate(mf *mfunc) ([]int, error) {
	zeroUndefined(mf)
	for round := 0; round < maxAllocRounds; round++ {
		res := regalloc.Allocate(mf.raFunc(), colourOrder)
		if len(res.Spilled) == 0 {
			color := res.Color
			for r := 0; r < numPhys; r++ {
				color[r] = r
			}
			if fp < len(color) {
				color[fp] = fp
			}
			return color, nil
		}
		for _, r := range res.Spilled {
			if mf.noSpill[r] {
				return nil, fmt.Errorf("register allocation failed: too many values live at once")
			}
		}
		mf.rewriteSpills(res.Spilled)
	}
	return nil, fmt.Errorf("register allocation did not converge after %d rounds", maxAllocRounds)
}

// zeroUndefined sets virtual registers that are read before any write on
// some path to 0 at entry: the verifier rejects reads of uninitialised
// registers, and C leaves the value unspecified anyway.
func zeroUndefined(mf *mfunc) {
	if len(mf.blocks) == 0 {
		return
	}
	var zero []minst
	regalloc.Liveness(mf.raFunc()).ForEachIn(0, func(r int) {
		if r >= firstVirt {
			zero = append(zero, minst{ins: asm.Mov.Imm(0, 0), dst: r, src: noReg, flags: fDstDef})
		}
	})
	if len(zero) == 0 {
		return
	}
	b := &mf.blocks[0]
	at := 0
	if len(b.insns) > 0 && b.insns[0].kind == kEntry {
		at = 1
	}
	for i := range zero {
		if at < len(b.insns) {
			zero[i].pos = b.insns[at].pos
		}
	}
	b.insns = append(b.insns[:at], append(zero, b.insns[at:]...)...)
}

// rewriteSpills gives each spilled register an 8-byte stack slot and
// replaces every occurrence with a short-lived temporary filled from, or
// spilled to, that slot with 64-bit loads and stores (the verifier tracks
// spilled pointers only in aligned 8-byte slots). Spilled registers never
// live at the same time share a slot.
func (mf *mfunc) rewriteSpills(spilled []int) {
	slot := map[int]int16{}
	colour, n := mf.spillColours(spilled)
	for _, r := range spilled {
		slot[r] = int16(-(mf.slotBytes + 8*(mf.spills+1+colour[r])))
	}
	mf.spills += n
	if mf.noSpill == nil {
		mf.noSpill = map[int]bool{}
	}
	fill := func(dst int, off int16, m *minst) minst {
		return minst{ins: asm.LoadMem(0, asm.R10, off, asm.DWord), dst: dst, src: fp, flags: fDstDef, pos: m.pos, spill: true}
	}
	store := func(src int, off int16, m *minst) minst {
		return minst{ins: asm.StoreMem(asm.R10, off, 0, asm.DWord), dst: fp, src: src, flags: fSrcUse, pos: m.pos, spill: true}
	}
	for bi := range mf.blocks {
		b := &mf.blocks[bi]
		var out []minst
		for _, m := range b.insns {
			dOff, dSp := slot[m.dst]
			sOff, sSp := slot[m.src]
			dSp = dSp && m.flags&(fDstUse|fDstDef) != 0
			sSp = sSp && m.flags&(fSrcUse|fSrcDef) != 0
			if !dSp && !sSp {
				out = append(out, m)
				continue
			}
			if m.flags&fMove != 0 && dSp != sSp {
				if sSp {
					f := fill(m.dst, sOff, &m)
					f.note = m.note
					out = append(out, f)
				} else {
					st := store(m.src, dOff, &m)
					st.note = m.note
					out = append(out, st)
				}
				continue
			}
			var before, after []minst
			var dt, st int
			if dSp {
				dt = mf.temp()
				mf.noSpill[dt] = true
				if m.flags&fDstUse != 0 {
					before = append(before, fill(dt, dOff, &m))
				}
				if m.flags&fDstDef != 0 {
					after = append(after, store(dt, dOff, &m))
				}
			}
			if sSp {
				if dSp && m.src == m.dst {
					st = dt
				} else {
					st = mf.temp()
					mf.noSpill[st] = true
					if m.flags&fSrcUse != 0 {
						before = append(before, fill(st, sOff, &m))
					}
					if m.flags&fSrcDef != 0 {
						after = append(after, store(st, sOff, &m))
					}
				}
			}
			if dSp {
				m.dst = dt
			}
			if sSp {
				m.src = st
			}
			if len(before) > 0 {
				before[0].note, m.note = m.note, ""
			}
			out = append(out, before...)
			out = append(out, m)
			out = append(out, after...)
		}
		b.insns = out
	}
}

// spillColours assigns the spilled registers slot numbers 0..n-1 so that
// two registers live at the same point never share one: a definition
// conflicts with every spilled register live after it.
func (mf *mfunc) spillColours(spilled []int) (map[int]int, int) {
	isSpilled := map[int]bool{}
	for _, r := range spilled {
		isSpilled[r] = true
	}
	rf := mf.raFunc()
	lv := regalloc.Liveness(rf)
	conflict := map[int]map[int]bool{}
	edge := func(a, b int) {
		if conflict[a] == nil {
			conflict[a] = map[int]bool{}
		}
		if conflict[b] == nil {
			conflict[b] = map[int]bool{}
		}
		conflict[a][b], conflict[b][a] = true, true
	}
	for bi, b := range rf.Blocks {
		live := map[int]bool{}
		lv.ForEachOut(bi, func(r int) {
			if isSpilled[r] {
				live[r] = true
			}
		})
		for i := len(b.Insns) - 1; i >= 0; i-- {
			in := b.Insns[i]
			for _, d := range in.Defs {
				if !isSpilled[d] {
					continue
				}
				for l := range live {
					if l != d {
						edge(d, l)
					}
				}
			}
			for _, d := range in.Defs {
				delete(live, d)
			}
			for _, u := range in.Uses {
				if isSpilled[u] {
					live[u] = true
				}
			}
		}
		// Registers live into the entry block are defined nowhere inside
		// this function's blocks before it: they overlap one another.
		if bi == 0 {
			for a := range live {
				for b := range live {
					if a != b {
						edge(a, b)
					}
				}
			}
		}
	}
	colour := map[int]int{}
	n := 0
	for _, r := range spilled {
		used := map[int]bool{}
		for o := range conflict[r] {
			if c, ok := colour[o]; ok {
				used[c] = true
			}
		}
		c := 0
		for used[c] {
			c++
		}
		colour[r] = c
		n = max(n, c+1)
	}
	return colour, n
}
