package codegen

import (
	"slices"

	"github.com/cilium/ebpf/asm"

	"github.com/bpfcc/bpfcc/bpfasm"
	"github.com/bpfcc/bpfcc/ir"
)

// selAsm places the inputs in the registers the asm text names, emits
// the asm's instructions as they are (their registers are physical, their
// jumps relative to each other) and reads the output. The registers it
// writes are defined at its first instruction, so no value lives in them
// across it.
func (s *selector) selAsm(in *ir.Instr) {
	insns, err := lateAssemble(in)
	if err != nil {
		s.err = err
		return
	}
	var uses []int
	for i, r := range in.Asm.In {
		s.setTo(int(r), in.Args[i])
		uses = append(uses, int(r))
	}
	var defs []int
	for _, r := range in.Asm.Writes {
		defs = append(defs, int(r))
	}
	for i, ins := range insns {
		m := minst{ins: ins, dst: noReg, src: noReg}
		if i == 0 {
			m.implUses, m.implDefs = uses, defs
		}
		s.emit(m)
	}
	if len(insns) == 0 {
		s.emit(minst{kind: kNone, dst: noReg, src: noReg, implUses: uses, implDefs: defs})
	}
	if in.Dst != 0 {
		s.mov(vreg(in.Dst), int(in.Asm.Out))
	}
}

// lateAssemble returns an asm statement's code: as lower assembled it, or,
// when some "i" operands became constants only after inlining and folding,
// assembled again with their values.
func lateAssemble(in *ir.Instr) (asm.Instructions, error) {
	code := in.Asm
	if len(code.Late) == 0 {
		return code.Insns, nil
	}
	ops := make([]bpfasm.Operand, len(code.Operands))
	for i, o := range code.Operands {
		ops[i] = bpfasm.Operand{Name: o.Name, Kind: bpfasm.KindImm, Reg: o.Reg, Imm: o.Imm, Sym: o.Sym}
		switch {
		case o.IsReg:
			ops[i].Kind = bpfasm.KindReg
		case o.Sym != "":
			ops[i].Kind = bpfasm.KindSym
		}
	}
	for _, l := range code.Late {
		v := in.Args[l.Arg]
		if !v.IsImm {
			return nil, errorAt(in.Pos, "asm operand %q must be a constant (an \"i\" operand), and is not one even after inlining", code.Operands[l.Operand].Name)
		}
		ops[l.Operand].Imm = v.Imm
	}
	insns, err := bpfasm.Assemble(code.Text, ops, code.ID)
	if err != nil {
		return nil, errorAt(in.Pos, "%s", err)
	}
	if len(insns) != len(code.Insns) {
		return nil, errorAt(in.Pos, "asm code changes its instruction count with its operands' values")
	}
	for i := range insns {
		if slices.Contains(code.Funcs, insns[i].Reference()) && insns[i].OpCode.IsDWordLoad() {
			insns[i].Src = asm.PseudoFunc
		}
	}
	return insns, nil
}
