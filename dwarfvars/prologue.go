package dwarfvars

import (
	"debug/dwarf"

	"github.com/go-delve/delve/pkg/dwarf/godwarf"
)

// Where a function's body starts, and whether it is optimised.

// afterPrologue returns where FUNC probes: the entry when the function is
// optimised (parameters are in their registers there), else the end of
// the prologue (prologue_end, or the second is_stmt row for gcc) so that
// frame-based locations hold the parameters.
func (b *Binary) afterPrologue(ft *funcTree) uint64 {
	b.bodyInfo(ft)
	if ft.opt {
		return ft.entry
	}
	return ft.body
}

// bodyInfo computes (once) whether the function is optimised and where its
// prologue ends.
func (b *Binary) bodyInfo(ft *funcTree) {
	ft.bodyOnce.Do(func() {
		opt, known := optimized(ft.cu.producer)
		if !known {
			opt = hasRegisterLocations(ft.root)
		}
		ft.opt, ft.body = opt, ft.entry
		if pe := b.findPrologueEnd(ft); pe != 0 {
			ft.body, ft.pe = pe, pe
			return
		}
		second := uint64(0)
		for _, rg := range ft.root.Ranges {
			ft.cu.rowsIn(rg[0], rg[1], func(i int) {
				r := ft.cu.rows[i]
				if r.stmt && r.addr > ft.entry && (second == 0 || r.addr < second) {
					second = r.addr
				}
			})
		}
		if second != 0 {
			ft.body = second
		}
	})
}

// prologueEnd returns the first prologue_end row inside the function, or 0.
func (b *Binary) prologueEnd(ft *funcTree) uint64 {
	b.bodyInfo(ft)
	return ft.pe
}

func (b *Binary) findPrologueEnd(ft *funcTree) uint64 {
	if _, err := b.lines(ft.cu); err != nil {
		return 0
	}
	var pe uint64
	for _, rg := range ft.root.Ranges {
		ft.cu.rowsIn(rg[0], rg[1], func(i int) {
			r := ft.cu.rows[i]
			if r.pEnd && r.addr > ft.entry && (pe == 0 || r.addr < pe) {
				pe = r.addr
			}
		})
	}
	return pe
}

// hasRegisterLocations reports whether any parameter or local lives in a
// location list or a register, which only optimised code does.
func hasRegisterLocations(n *godwarf.Tree) bool {
	for _, c := range n.Children {
		switch c.Tag {
		case dwarf.TagFormalParameter, dwarf.TagVariable:
			switch l := c.Val(dwarf.AttrLocation).(type) {
			case int64, uint64:
				return true
			case []byte:
				if len(l) > 0 && l[0] != 0x91 && l[0] != 0x03 && l[0] != 0xa1 { // fbreg, addr, addrx
					return true
				}
			}
		case dwarf.TagLexDwarfBlock, dwarf.TagInlinedSubroutine:
			if c.Tag == dwarf.TagInlinedSubroutine || hasRegisterLocations(c) {
				return true
			}
		}
	}
	return false
}
