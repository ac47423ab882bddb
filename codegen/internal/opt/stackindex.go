package opt

import (
	"strconv"

	"github.com/bpfcc/bpfcc/ir"
)

// stackIndex describes the address of an element of a stack array indexed
// by a register, `&f[i]` or `&f[i + 1]`: slot + off + (x << shift), where
// x is the register leaf plus the constant c in its low 32 bits (x is leaf
// through 32- and 64-bit adds of constants and 32-bit extensions, which
// all keep that). expr spells the whole computation, so two addresses with
// the same slot, expr and off are equal while leaf keeps its value.
type stackIndex struct {
	slot  *ir.Slot
	off   int64
	expr  string
	leaf  ir.Reg
	c     int64
	shift uint
}

// stackIndexer finds stackIndex addresses through registers defined once.
type stackIndexer struct {
	def map[ir.Reg]*ir.Instr
}

func newStackIndexer(f *ir.Func, defs map[ir.Reg]int) *stackIndexer {
	x := &stackIndexer{def: map[ir.Reg]*ir.Instr{}}
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			if in.Dst != 0 && defs[in.Dst] == 1 {
				x.def[in.Dst] = in
			}
		}
	}
	return x
}

// of describes the address in r, when it is a slot's address plus a
// register index (a constant offset alone is foldFrameAddrs' case).
func (x *stackIndexer) of(r ir.Reg) (stackIndex, bool) {
	a, ok := x.addr(r, 0)
	return a, ok && a.expr != ""
}

func (x *stackIndexer) addr(r ir.Reg, depth int) (stackIndex, bool) {
	in := x.def[r]
	if in == nil || depth > 8 {
		return stackIndex{}, false
	}
	switch {
	case in.Op == ir.OpFrameAddr:
		return stackIndex{slot: in.Slot, off: in.Off}, true
	case in.Op == ir.OpMov && !in.A.IsImm:
		return x.addr(in.A.Reg, depth+1)
	case in.Op == ir.OpALU && in.ALU == ir.Add && !in.W32 && !in.A.IsImm:
		if in.B.IsImm {
			a, ok := x.addr(in.A.Reg, depth+1)
			a.off += in.B.Imm
			return a, ok
		}
		for _, p := range [][2]ir.Reg{{in.A.Reg, in.B.Reg}, {in.B.Reg, in.A.Reg}} {
			a, ok := x.addr(p[0], depth+1)
			if !ok || a.expr != "" {
				continue
			}
			a.expr, a.leaf, a.c, a.shift = x.scaled(p[1])
			return a, true
		}
	}
	return stackIndex{}, false
}

// scaled describes an index register: (x << shift) or x.
func (x *stackIndexer) scaled(r ir.Reg) (expr string, leaf ir.Reg, c int64, shift uint) {
	if in := x.def[r]; in != nil && in.Op == ir.OpALU && in.ALU == ir.Lsh && !in.W32 && !in.A.IsImm &&
		in.B.IsImm && in.B.Imm >= 0 && in.B.Imm < 32 {
		expr, leaf, c = x.low32(in.A.Reg, 0)
		return expr + "<<" + strconv.FormatInt(in.B.Imm, 10), leaf, c, uint(in.B.Imm)
	}
	expr, leaf, c = x.low32(r, 0)
	return expr, leaf, c, 0
}

// low32 describes r as leaf plus c in its low 32 bits.
func (x *stackIndexer) low32(r ir.Reg, depth int) (expr string, leaf ir.Reg, c int64) {
	if in := x.def[r]; in != nil && depth < 8 && !in.A.IsImm {
		switch {
		case in.Op == ir.OpMov:
			return x.low32(in.A.Reg, depth+1)
		case in.Op == ir.OpALU && in.ALU == ir.Add && in.B.IsImm:
			e, l, c := x.low32(in.A.Reg, depth+1)
			op := "+"
			if in.W32 {
				op = "+w"
			}
			return "(" + e + op + strconv.FormatInt(in.B.Imm, 10) + ")", l, c + in.B.Imm
		case in.Op == ir.OpExt && in.Bits == 32:
			e, l, c := x.low32(in.A.Reg, depth+1)
			op := "z"
			if in.Signed {
				op = "s"
			}
			return op + "(" + e + ")", l, c
		}
	}
	return "r" + strconv.Itoa(int(r)), r, 0
}

// disjoint reports whether size bytes at a and size2 bytes at b cannot
// overlap: both index the same slot by the same leaf and shift, so
// a - b ≡ a.off - b.off + (a.c - b.c) << shift modulo 2^(32+shift), and
// that residue stays size2 away from 0 upwards and size away downwards.
func (a stackIndex) disjoint(size int, b stackIndex, size2 int) bool {
	if a.slot != b.slot {
		return true
	}
	if a.leaf != b.leaf || a.shift != b.shift {
		return false
	}
	m := uint64(1) << (32 + a.shift)
	d := (uint64(a.off-b.off) + uint64(a.c-b.c)<<a.shift) & (m - 1)
	return d >= uint64(size2) && d <= m-uint64(size)
}
