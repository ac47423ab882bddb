package codegen

import (
	"fmt"
	"sort"
	"strings"

	"github.com/bpfcc/bpfcc/ir"
	"github.com/cilium/ebpf/asm"
)

// This file prints and checks the back end's state between its stages
// (see backEnd).

// printSlots shows the frame layout: each stack object's offset from R10.
func printSlots(s *fstate) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "frame %s: %d bytes\n", s.f.Name, s.mf.slotBytes)
	slots := make([]*ir.Slot, 0, len(s.mf.slotOff))
	for sl := range s.mf.slotOff {
		slots = append(slots, sl)
	}
	sort.Slice(slots, func(i, j int) bool { return slots[i].ID < slots[j].ID })
	for _, sl := range slots {
		fmt.Fprintf(&sb, "  s%d %q size %d: r10%+d\n", sl.ID, sl.Name, sl.Size, s.mf.slotOff[sl])
	}
	return sb.String()
}

// printEmitted is the function's listing as -S prints it.
func printEmitted(s *fstate) string {
	var sb strings.Builder
	writeFunc(&sb, s.fn)
	return sb.String()
}

// printMIR prints the machine IR: per block its instructions in the
// listing's syntax, virtual registers as vN (vwN for a 32-bit use) before
// allocation and as their physical register after it.
func printMIR(s *fstate) string {
	mf := s.mf
	var sb strings.Builder
	fmt.Fprintf(&sb, "mir %s: %d registers, %d spill slots\n", mf.name, mf.next, mf.spills)
	for i := range mf.blocks {
		b := &mf.blocks[i]
		fmt.Fprintf(&sb, "mb%d: ; weight %g\n", i, b.weight)
		for j := range b.insns {
			sb.WriteString("  " + s.formatMInst(&b.insns[j]) + "\n")
		}
	}
	return sb.String()
}

// Placeholders for the registers of an instruction template while it is
// formatted; formatMInst replaces their names.
const (
	dstMark asm.Register = 254
	srcMark asm.Register = 253
)

func (s *fstate) regText(r int, w32 bool) string {
	if s.color != nil && r >= 0 && r < len(s.color) && s.color[r] >= 0 {
		r = s.color[r]
	}
	switch {
	case r == fp:
		return "r10"
	case r < numPhys && w32:
		return fmt.Sprintf("w%d", r)
	case r < numPhys:
		return fmt.Sprintf("r%d", r)
	case w32:
		return fmt.Sprintf("vw%d", r)
	}
	return fmt.Sprintf("v%d", r)
}

func (s *fstate) regList(rs []int) string {
	names := make([]string, len(rs))
	for i, r := range rs {
		names[i] = s.regText(r, false)
	}
	return strings.Join(names, " ")
}

func (s *fstate) formatMInst(m *minst) string {
	var text string
	switch m.kind {
	case kEntry:
		text = "entry"
	case kNone:
		text = "asm constraints"
	case kJump:
		text = fmt.Sprintf("goto mb%d", m.then)
	case kBranch:
		b := fmt.Sprint(m.ins.Constant)
		if m.src >= 0 {
			b = s.regText(m.src, m.w32)
		}
		text = fmt.Sprintf("if %s %s %s goto mb%d else mb%d", s.regText(m.dst, m.w32), jumpSyms[m.ins.OpCode.JumpOp()], b, m.then, m.els)
	default:
		ins := m.ins
		if m.dst >= 0 {
			ins.Dst = dstMark
		}
		if m.src >= 0 {
			ins.Src = srcMark
		}
		text = FormatInsn(ins, 0)
		for _, r := range []struct {
			mark asm.Register
			reg  int
		}{{dstMark, m.dst}, {srcMark, m.src}} {
			if r.reg >= 0 {
				text = strings.ReplaceAll(text, regName(r.mark, true), s.regText(r.reg, true))
				text = strings.ReplaceAll(text, regName(r.mark, false), s.regText(r.reg, false))
			}
		}
	}
	if len(m.implUses) > 0 {
		text += " ; uses " + s.regList(m.implUses)
	}
	if len(m.implDefs) > 0 {
		text += " ; defs " + s.regList(m.implDefs)
	}
	return text
}

// checkMIR checks the machine IR's shape: every block ends in its only
// terminator, branch targets exist, the entry marker heads block 0,
// registers are in range and, after allocation, every register an
// instruction touches has a physical one.
func checkMIR(s *fstate) error {
	mf := s.mf
	inRange := func(r int) bool { return r >= 0 && r < mf.next }
	for i := range mf.blocks {
		b := &mf.blocks[i]
		if len(b.insns) == 0 {
			return fmt.Errorf("mb%d is empty", i)
		}
		for j := range b.insns {
			m := &b.insns[j]
			where := func() string { return fmt.Sprintf("mb%d[%d] %s", i, j, s.formatMInst(m)) }
			term := m.kind == kJump || m.kind == kBranch || m.kind == kExit
			switch {
			case term != (j == len(b.insns)-1):
				return fmt.Errorf("%s: a block ends with its one terminator", where())
			case m.kind == kEntry && (i != 0 || j != 0):
				return fmt.Errorf("%s: the entry marker is not the first instruction", where())
			case (m.kind == kJump || m.kind == kBranch) && (m.then < 0 || m.then >= len(mf.blocks)):
				return fmt.Errorf("%s: no block mb%d", where(), m.then)
			case m.kind == kBranch && (m.els < 0 || m.els >= len(mf.blocks)):
				return fmt.Errorf("%s: no block mb%d", where(), m.els)
			case m.flags&(fDstUse|fDstDef) != 0 && !inRange(m.dst):
				return fmt.Errorf("%s: destination register %d out of range", where(), m.dst)
			case m.flags&(fSrcUse|fSrcDef) != 0 && !inRange(m.src):
				return fmt.Errorf("%s: source register %d out of range", where(), m.src)
			}
			for _, r := range append(m.uses(), m.defs()...) {
				if !inRange(r) {
					return fmt.Errorf("%s: register %d out of range", where(), r)
				}
				if s.color != nil && (r >= len(s.color) || s.color[r] < 0 || s.color[r] >= numPhys) {
					return fmt.Errorf("%s: register %d has no physical register", where(), r)
				}
			}
		}
	}
	return nil
}
