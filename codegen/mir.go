package codegen

import (
	"github.com/bpfcc/bpfcc/codegen/internal/regalloc"
	"github.com/bpfcc/bpfcc/ir"
	"github.com/cilium/ebpf/asm"
)

// Machine registers: 0..9 are R0..R9, 10 is the read-only frame pointer and
// numbers from firstVirt on are virtual registers.
const (
	numPhys   = 10
	fp        = 10
	firstVirt = 11
	noReg     = -1
)

// minst flags say how dst and src are accessed.
const (
	fDstUse = 1 << iota
	fDstDef
	fSrcUse
	fSrcDef
	fMove // dst = src, a coalescing candidate
)

// mkind distinguishes the instructions layout treats specially.
type mkind uint8

const (
	kPlain mkind = iota
	kJump
	kBranch
	kExit
	kEntry // defines the parameter registers; emits nothing
	kNone  // an empty asm statement's register constraints; emits nothing
)

// minst is an eBPF instruction on virtual registers: ins is the template
// whose Dst and Src are filled in from dst and src after allocation.
type minst struct {
	ins      asm.Instruction
	dst, src int
	flags    uint8
	kind     mkind
	implUses []int
	implDefs []int
	// then and els are MIR block indices for kJump (then) and kBranch.
	then, els int
	cond      ir.Cond   // kBranch
	likely    ir.Likely // kBranch: the successor expected (ir.Instr.Likely)
	w32       bool      // kBranch
	pos       ir.Pos
	note      string
	// spill marks the register allocator's spill code (a spilled
	// register's store and fill), which assignBlock may thin out.
	spill bool
}

type mblock struct {
	insns  []minst
	weight float64
}

// mfunc is a function being compiled.
type mfunc struct {
	name    string
	pos     ir.Pos // the definition, for diagnostics
	blocks  []mblock
	next    int // next free virtual register
	noSpill map[int]bool
	// frame layout: bytes used by ir.Slots, then spill slots below them.
	slotOff   map[*ir.Slot]int
	slotBytes int
	spills    int
}

func (f *mfunc) temp() int {
	r := f.next
	f.next++
	return r
}

// uses and defs list the registers an instruction reads and writes,
// excluding the frame pointer.
func (m *minst) uses() []int {
	var u []int
	if m.flags&fDstUse != 0 && m.dst != fp {
		u = append(u, m.dst)
	}
	if m.flags&fSrcUse != 0 && m.src != fp {
		u = append(u, m.src)
	}
	return append(u, m.implUses...)
}

func (m *minst) defs() []int {
	var d []int
	if m.flags&fDstDef != 0 && m.dst != fp {
		d = append(d, m.dst)
	}
	if m.flags&fSrcDef != 0 && m.src != fp {
		d = append(d, m.src)
	}
	return append(d, m.implDefs...)
}

func (m *minst) succs() []int {
	switch m.kind {
	case kJump:
		return []int{m.then}
	case kBranch:
		return []int{m.then, m.els}
	}
	return nil
}

// raFunc builds the allocator's view of f.
func (f *mfunc) raFunc() *regalloc.Func {
	rf := &regalloc.Func{K: numPhys, N: f.next, Blocks: make([]regalloc.Block, len(f.blocks)), NoSpill: make([]bool, f.next)}
	for r := range f.noSpill {
		rf.NoSpill[r] = true
	}
	for i := range f.blocks {
		b := &f.blocks[i]
		rb := &rf.Blocks[i]
		rb.Weight = b.weight
		for j := range b.insns {
			m := &b.insns[j]
			rb.Insns = append(rb.Insns, regalloc.Insn{Uses: m.uses(), Defs: m.defs(), Move: m.flags&fMove != 0})
		}
		if n := len(b.insns); n > 0 {
			rb.Succs = b.insns[n-1].succs()
		}
	}
	return rf
}
