package opt

import (
	"slices"

	"github.com/bpfcc/bpfcc/ir"
)

// The facts propagateValues tracks: per register an abstract value, per
// stack object whose address does not escape the values stored in it.

type vkind uint8

const (
	vUnknown vkind = iota
	vConst
	vFrame
	vSym // the address of global sym + c
)

// aval is the abstract value of a register.
type aval struct {
	k    vkind
	c    int64 // the constant, or the offset within slot or sym
	slot *ir.Slot
	sym  string
}

// memEnt says that Size bytes at slot+off hold val (an immediate, or the
// value of a register not redefined since the store).
type memEnt struct {
	slot *ir.Slot
	off  int64
	size int
	val  ir.Operand
}

// vstate is the dataflow fact at a program point. A nil *vstate means the
// point has not been reached yet.
type vstate struct {
	regs regVals
	mem  []memEnt
}

// regVals maps registers to their known values: a slice sorted by
// register, so that a state is cloned by one copy and met with another by
// one merge (states are cloned at every block of every analysis, and the
// unroller runs the analyses after each loop it unrolls).
type regVals []regVal

type regVal struct {
	r ir.Reg
	v aval
}

func (rv regVals) find(r ir.Reg) (int, bool) {
	return slices.BinarySearchFunc(rv, r, func(e regVal, r ir.Reg) int { return int(e.r - r) })
}

// get returns r's value (unknown when absent).
func (rv regVals) get(r ir.Reg) aval {
	if i, ok := rv.find(r); ok {
		return rv[i].v
	}
	return aval{}
}

func (rv regVals) lookup(r ir.Reg) (aval, bool) {
	if i, ok := rv.find(r); ok {
		return rv[i].v, true
	}
	return aval{}, false
}

func (rv *regVals) set(r ir.Reg, v aval) {
	i, ok := rv.find(r)
	if ok {
		(*rv)[i].v = v
		return
	}
	*rv = slices.Insert(*rv, i, regVal{r, v})
}

func (rv *regVals) del(r ir.Reg) {
	if i, ok := rv.find(r); ok {
		*rv = slices.Delete(*rv, i, i+1)
	}
}

func (s *vstate) clone() *vstate {
	return &vstate{regs: slices.Clone(s.regs), mem: slices.Clone(s.mem)}
}

// meet keeps what s and o agree on; it reports whether s changed.
func (s *vstate) meet(o *vstate) bool {
	changed := false
	keptRegs := s.regs[:0]
	j := 0
	for _, e := range s.regs {
		for j < len(o.regs) && o.regs[j].r < e.r {
			j++
		}
		if j < len(o.regs) && o.regs[j] == e {
			keptRegs = append(keptRegs, e)
		} else {
			changed = true
		}
	}
	clear(s.regs[len(keptRegs):])
	s.regs = keptRegs
	kept := s.mem[:0]
	for _, e := range s.mem {
		if slices.Contains(o.mem, e) {
			kept = append(kept, e)
		} else {
			changed = true
		}
	}
	s.mem = kept
	return changed
}
