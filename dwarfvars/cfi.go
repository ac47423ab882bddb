package dwarfvars

import (
	"fmt"

	"github.com/go-delve/delve/pkg/dwarf/frame"
)

// Call frame information (.eh_frame, .debug_frame) at an address: the CFA
// rule, and the rules that recover the caller's registers.

// cfaAt returns the CFA rule at pc as a Source.
func (b *Binary) cfaAt(pc uint64) (Source, error) {
	fdes, err := b.frames()
	if err != nil {
		return Source{}, err
	}
	fde, err := fdes.FDEForPC(pc)
	if err != nil {
		return Source{}, fmt.Errorf("no call frame info for %#x", pc)
	}
	fc, err := establish(fde, pc)
	if err != nil {
		return Source{}, err
	}
	if fc.CFA.Rule != frame.RuleCFA {
		return Source{}, fmt.Errorf("CFA at %#x is a DWARF expression", pc)
	}
	off, ok := RegsOffset(int(fc.CFA.Reg))
	if !ok {
		return Source{}, fmt.Errorf("CFA register %s is not in pt_regs", regName(int(fc.CFA.Reg)))
	}
	return Source{Kind: SrcCFA, Reg: int(fc.CFA.Reg), RegsOff: off, Offset: fc.CFA.Offset}, nil
}

func establish(fde *frame.FrameDescriptionEntry, pc uint64) (fc *frame.FrameContext, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("call frame info for %#x: %w: %v", pc, ErrMalformed, r)
		}
	}()
	return fde.EstablishFrame(pc)
}

// frameRules returns the CFI register rules at pc.
func (b *Binary) frameRules(pc uint64) (*frame.FrameContext, error) {
	fdes, err := b.frames()
	if err != nil {
		return nil, err
	}
	fde, err := fdes.FDEForPC(pc)
	if err != nil {
		return nil, fmt.Errorf("no call frame info for %#x", pc)
	}
	return establish(fde, pc)
}
