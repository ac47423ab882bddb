package codegen

import (
	"fmt"
	"math"

	"github.com/cilium/ebpf/asm"

	"github.com/bpfcc/bpfcc/codegen/obj"
	"github.com/bpfcc/bpfcc/ir"
)

// selector turns one ir.Func into machine instructions on virtual registers.
type selector struct {
	f    *mfunc
	cpu  int
	cur  *mblock
	pos  ir.Pos
	note string
	err  error
}

var aluOps = map[ir.ALU]asm.ALUOp{
	ir.Add: asm.Add, ir.Sub: asm.Sub, ir.Mul: asm.Mul, ir.UDiv: asm.Div, ir.UMod: asm.Mod,
	ir.SDiv: asm.SDiv, ir.SMod: asm.SMod, ir.Or: asm.Or, ir.And: asm.And, ir.Xor: asm.Xor,
	ir.Lsh: asm.LSh, ir.Rsh: asm.RSh, ir.Arsh: asm.ArSh,
}

var jumpOps = map[ir.Cond]asm.JumpOp{
	ir.Eq: asm.JEq, ir.Ne: asm.JNE, ir.Ugt: asm.JGT, ir.Uge: asm.JGE, ir.Ult: asm.JLT, ir.Ule: asm.JLE,
	ir.Sgt: asm.JSGT, ir.Sge: asm.JSGE, ir.Slt: asm.JSLT, ir.Sle: asm.JSLE, ir.Set: asm.JSet,
}

var sizes = map[int]asm.Size{1: asm.Byte, 2: asm.Half, 4: asm.Word, 8: asm.DWord}

func vreg(r ir.Reg) int { return firstVirt + int(r) - 1 }

// selectFunc builds the machine function; slot offsets must be laid out.
func selectFunc(f *ir.Func, mf *mfunc, cpu int) error {
	s := &selector{f: mf, cpu: cpu}
	mf.blocks = make([]mblock, len(f.Blocks))
	weights := loopWeights(f)
	for i, b := range f.Blocks {
		s.cur = &mf.blocks[i]
		s.cur.weight = weights[i]
		if i == 0 {
			s.entry(f)
		}
		for _, in := range b.Instrs {
			s.pos, s.note = in.Pos, in.Note
			if s.pos == (ir.Pos{}) {
				s.pos = f.Pos
			}
			s.instr(in)
			if s.err != nil {
				return fmt.Errorf("b%d: %s: %w", b.ID, in, s.err)
			}
		}
	}
	return nil
}

// loopWeights estimates loop nesting from back edges in block order.
func loopWeights(f *ir.Func) []float64 {
	depth := make([]int, len(f.Blocks))
	for i, b := range f.Blocks {
		for _, s := range b.Succs() {
			if s != nil && s.ID <= i && s.ID >= 0 {
				for j := s.ID; j <= i; j++ {
					depth[j]++
				}
			}
		}
	}
	w := make([]float64, len(depth))
	for i, d := range depth {
		w[i] = 1
		for ; d > 0 && w[i] < 1e6; d-- {
			w[i] *= 10
		}
	}
	return w
}

func (s *selector) emit(m minst) {
	m.pos = s.pos
	m.note, s.note = s.note, ""
	s.cur.insns = append(s.cur.insns, m)
}

func (s *selector) entry(f *ir.Func) {
	var defs []int
	for i := range f.Params {
		defs = append(defs, i+1)
	}
	s.pos = f.Pos
	s.emit(minst{kind: kEntry, dst: noReg, src: noReg, implDefs: defs})
	for i, p := range f.Params {
		s.mov(vreg(p), i+1)
	}
}

func (s *selector) mov(dst, src int) {
	if dst == src {
		return
	}
	s.emit(minst{ins: asm.Mov.Reg(0, 0), dst: dst, src: src, flags: fDstDef | fSrcUse | fMove})
}

// constant sets dst to v.
func (s *selector) constant(dst int, v int64) {
	ins := asm.LoadImm(0, v, asm.DWord)
	if fitsInt32(v) {
		ins = asm.Mov.Imm(0, int32(v))
	} else if v > 0 && v <= math.MaxUint32 {
		// A 32-bit move zero-extends: w1 = -1 is 0xffffffff, as clang
		// passes an int -1 (a 4-byte argument is zero-extended).
		ins = asm.Mov.Imm32(0, int32(uint32(v)))
	}
	s.emit(minst{ins: ins, dst: dst, src: noReg, flags: fDstDef})
}

// reg returns a register holding o, materialising immediates.
func (s *selector) reg(o ir.Operand) int {
	if !o.IsImm {
		return vreg(o.Reg)
	}
	t := s.f.temp()
	s.constant(t, o.Imm)
	return t
}

// setTo puts operand o into register dst.
func (s *selector) setTo(dst int, o ir.Operand) {
	if o.IsImm {
		s.constant(dst, o.Imm)
	} else {
		s.mov(dst, vreg(o.Reg))
	}
}

// alu emits dst op= b, where dst already holds the left operand.
func (s *selector) alu(op ir.ALU, w32 bool, dst int, b ir.Operand) {
	aop := aluOps[op]
	if b.IsImm {
		v := b.Imm
		switch op {
		case ir.Lsh, ir.Rsh, ir.Arsh:
			if w32 {
				v &= 31
			} else {
				v &= 63
			}
		case ir.UDiv, ir.UMod, ir.SDiv, ir.SMod:
			if (w32 && uint32(v) == 0) || (!w32 && v == 0) {
				// eBPF semantics; the verifier rejects an immediate 0 divisor.
				if op == ir.UDiv || op == ir.SDiv {
					s.constant(dst, 0)
				} else if w32 {
					s.emit(minst{ins: asm.Mov.Reg32(0, 0), dst: dst, src: dst, flags: fDstDef | fSrcUse})
				}
				return
			}
		}
		switch {
		case w32:
			s.emit(minst{ins: aop.Imm32(0, int32(v)), dst: dst, src: noReg, flags: fDstUse | fDstDef})
			return
		case fitsInt32(v):
			s.emit(minst{ins: aop.Imm(0, int32(v)), dst: dst, src: noReg, flags: fDstUse | fDstDef})
			return
		}
	}
	src := s.reg(b)
	ins := aop.Reg(0, 0)
	if w32 {
		ins = aop.Reg32(0, 0)
	}
	s.emit(minst{ins: ins, dst: dst, src: src, flags: fDstUse | fDstDef | fSrcUse})
}

func (s *selector) instr(in *ir.Instr) {
	dst := vreg(in.Dst)
	switch in.Op {
	case ir.OpMov:
		s.setTo(dst, in.A)
	case ir.OpALU:
		s.selALU(in)
	case ir.OpNeg:
		if in.A.IsImm {
			s.constant(dst, ir.EvalALU(ir.Sub, in.W32, 0, in.A.Imm))
			return
		}
		s.setTo(dst, in.A)
		ins := asm.Neg.Imm(0, 0)
		if in.W32 {
			ins = asm.Neg.Imm32(0, 0)
		}
		s.emit(minst{ins: ins, dst: dst, src: noReg, flags: fDstUse | fDstDef})
	case ir.OpExt:
		s.selExt(in)
	case ir.OpBswap:
		s.selBswap(in)
	case ir.OpLoad:
		s.selLoad(in)
	case ir.OpStore:
		s.selStore(in)
	case ir.OpAtomic:
		s.selAtomic(in)
	case ir.OpFrameAddr:
		off, ok := s.f.slotOff[in.Slot]
		if !ok {
			s.err = fmt.Errorf("slot has no frame offset")
			return
		}
		s.emit(minst{ins: asm.Mov.Reg(0, asm.R10), dst: dst, src: fp, flags: fDstDef})
		if v := int64(off) + in.Off; v != 0 {
			s.alu(ir.Add, false, dst, ir.Imm(v))
		}
	case ir.OpSymAddr:
		ins := asm.LoadImm(0, in.Off, asm.DWord).WithReference(in.Sym)
		s.emit(minst{ins: ins, dst: dst, src: noReg, flags: fDstDef})
	case ir.OpMapPtr:
		ins := asm.LoadMapPtr(0, 0).WithReference(in.Sym)
		s.emit(minst{ins: ins, dst: dst, src: noReg, flags: fDstDef})
	case ir.OpFuncAddr:
		ins := asm.LoadImm(0, 0, asm.DWord)
		ins.Src = asm.PseudoFunc
		s.emit(minst{ins: ins.WithReference(in.Sym), dst: dst, src: noReg, flags: fDstDef})
	case ir.OpCore:
		s.emit(minst{ins: coreInsn(in), dst: dst, src: noReg, flags: fDstDef})
	case ir.OpCall, ir.OpCallFunc:
		s.selCall(in)
	case ir.OpAsm:
		s.selAsm(in)
	case ir.OpJump:
		s.emit(minst{kind: kJump, ins: asm.Ja.Label(""), dst: noReg, src: noReg, then: in.Then.ID})
	case ir.OpBranch:
		s.selBranch(in)
	case ir.OpRet:
		s.setTo(0, in.A)
		s.emit(minst{kind: kExit, ins: asm.Return(), dst: noReg, src: noReg, implUses: []int{0}})
	default:
		s.err = fmt.Errorf("unsupported operation %s", in.Op)
	}
}

func (s *selector) selALU(in *ir.Instr) {
	a, b := in.A, in.B
	dst := vreg(in.Dst)
	if a.IsImm && b.IsImm {
		s.constant(dst, ir.EvalALU(in.ALU, in.W32, a.Imm, b.Imm))
		return
	}
	if (in.ALU == ir.SDiv || in.ALU == ir.SMod) && s.cpu < 4 {
		s.err = fmt.Errorf("signed division needs -mcpu=v4 (not expanded)")
		return
	}
	if commutative(in.ALU) && (a.IsImm || (!b.IsImm && b.Reg == in.Dst)) {
		a, b = b, a
	}
	if !b.IsImm && b.Reg == in.Dst && (a.IsImm || a.Reg != in.Dst) {
		// dst = a op dst: compute into a temporary.
		t := s.f.temp()
		s.setTo(t, a)
		s.alu(in.ALU, in.W32, t, b)
		s.mov(dst, t)
		return
	}
	s.setTo(dst, a)
	s.alu(in.ALU, in.W32, dst, b)
}

func (s *selector) selExt(in *ir.Instr) {
	dst := vreg(in.Dst)
	if in.A.IsImm {
		s.constant(dst, ir.EvalExt(in.A.Imm, in.Bits, in.Signed))
		return
	}
	src := vreg(in.A.Reg)
	switch {
	case !in.Signed && in.Bits == 32:
		s.emit(minst{ins: asm.Mov.Reg32(0, 0), dst: dst, src: src, flags: fDstDef | fSrcUse})
	case !in.Signed:
		s.mov(dst, src)
		s.alu(ir.And, false, dst, ir.Imm(int64(1)<<in.Bits-1))
	case s.cpu >= 4:
		op := map[int]asm.ALUOp{8: asm.MovSX8, 16: asm.MovSX16, 32: asm.MovSX32}[in.Bits]
		s.emit(minst{ins: op.Reg(0, 0), dst: dst, src: src, flags: fDstDef | fSrcUse})
	default:
		s.mov(dst, src)
		s.signExtendInPlace(dst, in.Bits)
	}
}

func (s *selector) signExtendInPlace(r int, bits int) {
	s.alu(ir.Lsh, false, r, ir.Imm(int64(64-bits)))
	s.alu(ir.Arsh, false, r, ir.Imm(int64(64-bits)))
}

func (s *selector) selBswap(in *ir.Instr) {
	dst := vreg(in.Dst)
	if in.A.IsImm {
		s.constant(dst, ir.EvalBswap(in.A.Imm, in.Bits))
		return
	}
	s.setTo(dst, in.A)
	size := map[int]asm.Size{16: asm.Half, 32: asm.Word, 64: asm.DWord}[in.Bits]
	ins := asm.HostTo(asm.BE, 0, size)
	if s.cpu >= 4 {
		ins = asm.BSwap(0, size)
	}
	s.emit(minst{ins: ins, dst: dst, src: noReg, flags: fDstUse | fDstDef})
}

// address returns a base register and a 16-bit offset for A+Off.
// memAddress returns the base register and offset of a memory access,
// R10-relative for slot-addressed ones.
func (s *selector) memAddress(in *ir.Instr) (int, int16) {
	if in.Slot != nil {
		off, ok := s.f.slotOff[in.Slot]
		if !ok {
			s.err = fmt.Errorf("slot has no frame offset")
			return fp, 0
		}
		v := int64(off) + in.Off
		if fitsInt16(v) {
			return fp, int16(v)
		}
		t := s.f.temp()
		s.emit(minst{ins: asm.Mov.Reg(0, asm.R10), dst: t, src: fp, flags: fDstDef})
		s.alu(ir.Add, false, t, ir.Imm(v))
		return t, 0
	}
	return s.address(in.A, in.Off)
}

func (s *selector) address(a ir.Operand, off int64) (int, int16) {
	if a.IsImm {
		t := s.f.temp()
		s.constant(t, a.Imm+off)
		return t, 0
	}
	base := vreg(a.Reg)
	if fitsInt16(off) {
		return base, int16(off)
	}
	t := s.f.temp()
	s.mov(t, base)
	s.alu(ir.Add, false, t, ir.Imm(off))
	return t, 0
}

// coreAddress is the base register and offset of an access whose offset
// is a CO-RE relocation: the loader rewrites the offset field, so it must
// be exactly the local value.
func (s *selector) coreAddress(in *ir.Instr) (int, int16) {
	if !fitsInt16(in.Off) {
		s.err = fmt.Errorf("CO-RE relocated offset %d does not fit an instruction", in.Off)
	}
	return s.reg(in.A), int16(in.Off)
}

// accessAddress is memAddress, or coreAddress for relocated accesses.
func (s *selector) accessAddress(in *ir.Instr) (int, int16) {
	if in.Core != nil {
		return s.coreAddress(in)
	}
	return s.memAddress(in)
}

// withCore returns ins carrying in's CO-RE relocation, if it has one.
func withCore(in *ir.Instr, ins asm.Instruction) asm.Instruction {
	if in.Core == nil {
		return ins
	}
	return obj.WithCore(ins, &obj.CoreReloc{Kind: uint32(in.Core.Kind), Type: in.Core.Type, Access: in.Core.Access})
}

func (s *selector) selLoad(in *ir.Instr) {
	dst := vreg(in.Dst)
	base, off := s.accessAddress(in)
	size := sizes[in.Size]
	if in.Signed && in.Size < 8 && s.cpu >= 4 {
		s.emit(minst{ins: withCore(in, asm.LoadMemSX(0, 0, off, size)), dst: dst, src: base, flags: fDstDef | fSrcUse})
		return
	}
	s.emit(minst{ins: withCore(in, asm.LoadMem(0, 0, off, size)), dst: dst, src: base, flags: fDstDef | fSrcUse})
	if in.Signed && in.Size < 8 {
		s.signExtendInPlace(dst, in.Size*8)
	}
}

func (s *selector) selStore(in *ir.Instr) {
	base, off := s.accessAddress(in)
	size := sizes[in.Size]
	if in.B.IsImm && (in.Size < 8 || fitsInt32(in.B.Imm)) {
		ins := asm.Instruction{OpCode: asm.StoreImmOp(size), Offset: off, Constant: int64(int32(in.B.Imm))}
		s.emit(minst{ins: withCore(in, ins), dst: base, src: noReg, flags: fDstUse})
		return
	}
	val := s.reg(in.B)
	s.emit(minst{ins: withCore(in, asm.StoreMem(0, off, 0, size)), dst: base, src: val, flags: fDstUse | fSrcUse})
}

func (s *selector) selAtomic(in *ir.Instr) {
	base, off := s.memAddress(in)
	size := sizes[in.Size]
	var op asm.AtomicOp
	fetch := in.Fetch || in.Atomic == ir.AtomicXchg || in.Atomic == ir.AtomicCmpXchg
	switch in.Atomic {
	case ir.AtomicAdd:
		op = asm.AddAtomic
	case ir.AtomicOr:
		op = asm.OrAtomic
	case ir.AtomicAnd:
		op = asm.AndAtomic
	case ir.AtomicXor:
		op = asm.XorAtomic
	case ir.AtomicXchg:
		op = asm.Xchg
	case ir.AtomicCmpXchg:
		op = asm.CmpXchg
	}
	if fetch && in.Atomic <= ir.AtomicXor {
		op |= asm.FetchAdd &^ asm.AddAtomic // the fetch bit
	}
	ins := op.Mem(0, 0, size, off)
	// cilium/ebpf v0.22 marshals the immediate from Constant (as its own
	// Unmarshal leaves it), not from the opcode's atomic bits: set both.
	ins.Constant = int64(op >> 8)
	switch {
	case in.Atomic == ir.AtomicCmpXchg:
		s.setTo(0, in.C)
		val := s.reg(in.B)
		s.emit(minst{ins: ins, dst: base, src: val, flags: fDstUse | fSrcUse, implUses: []int{0}, implDefs: []int{0}})
		if in.Dst != 0 {
			s.mov(vreg(in.Dst), 0)
		}
	case fetch:
		t := s.f.temp()
		s.setTo(t, in.B)
		s.emit(minst{ins: ins, dst: base, src: t, flags: fDstUse | fSrcUse | fSrcDef})
		if in.Dst != 0 {
			s.mov(vreg(in.Dst), t)
		}
	default:
		val := s.reg(in.B)
		s.emit(minst{ins: ins, dst: base, src: val, flags: fDstUse | fSrcUse})
	}
}

func (s *selector) selCall(in *ir.Instr) {
	if in.Op == ir.OpCall && in.Size > 0 {
		s.selPacketLoad(in)
		return
	}
	if len(in.Args) > ir.MaxArgs {
		s.err = fmt.Errorf("%d arguments, at most %d allowed", len(in.Args), ir.MaxArgs)
		return
	}
	var uses []int
	for i, a := range in.Args {
		s.setTo(i+1, a)
		uses = append(uses, i+1)
	}
	ins := asm.Instruction{OpCode: asm.OpCode(asm.JumpClass).SetJumpOp(asm.Call), Constant: in.Imm}
	if in.Op == ir.OpCallFunc {
		ins = asm.Call.Label(in.Sym)
	}
	s.emit(minst{ins: ins, dst: noReg, src: noReg, implUses: uses, implDefs: []int{0, 1, 2, 3, 4, 5}})
	if in.Dst != 0 {
		s.mov(vreg(in.Dst), 0)
	}
}

// selPacketLoad emits BPF_LD_ABS (constant offset) or BPF_LD_IND: the
// socket buffer must be in R6, the result arrives in R0 and R1-R5 are
// clobbered, as by a call.
func (s *selector) selPacketLoad(in *ir.Instr) {
	if len(in.Args) != 2 {
		s.err = fmt.Errorf("packet load takes 2 arguments, got %d", len(in.Args))
		return
	}
	size := map[int]asm.Size{1: asm.Byte, 2: asm.Half, 4: asm.Word}[in.Size]
	s.setTo(6, in.Args[0])
	uses := []int{6}
	m := minst{ins: asm.LoadAbs(int32(in.Args[1].Imm), size), dst: noReg, src: noReg}
	if off := in.Args[1]; !off.IsImm || off.Imm != int64(int32(off.Imm)) {
		m = minst{ins: asm.LoadInd(asm.R0, asm.R0, 0, size), dst: noReg, src: s.reg(off), flags: fSrcUse}
	}
	m.implUses, m.implDefs = uses, []int{0, 1, 2, 3, 4, 5}
	s.emit(m)
	if in.Dst != 0 {
		s.mov(vreg(in.Dst), 0)
	}
}

func (s *selector) selBranch(in *ir.Instr) {
	a, b, cond := in.A, in.B, in.Cond
	if a.IsImm && b.IsImm {
		t := in.Else
		if ir.EvalCond(cond, in.W32, a.Imm, b.Imm) {
			t = in.Then
		}
		s.emit(minst{kind: kJump, ins: asm.Ja.Label(""), dst: noReg, src: noReg, then: t.ID})
		return
	}
	if a.IsImm {
		a, b, cond = b, a, cond.Mirror()
	}
	if s.cpu < 2 && (cond == ir.Ult || cond == ir.Ule || cond == ir.Slt || cond == ir.Sle) {
		// v1 has no jlt/jle/jslt/jsle: swap the operands.
		rb := s.reg(b)
		s.branch(cond.Mirror(), in.W32, rb, ir.Operand{}, vreg(a.Reg), in)
		return
	}
	ra := vreg(a.Reg)
	s.branch(cond, in.W32, ra, b, -1, in)
}

// branch emits "if ra cond b" (or "if ra cond rb" when rb >= 0).
func (s *selector) branch(cond ir.Cond, w32 bool, ra int, b ir.Operand, rb int, in *ir.Instr) {
	if w32 && s.cpu < 3 {
		s.err = fmt.Errorf("32-bit comparison needs -mcpu=v3 (not legalised)")
		return
	}
	jop := jumpOps[cond]
	m := minst{kind: kBranch, cond: cond, w32: w32, dst: ra, src: noReg, flags: fDstUse, then: in.Then.ID, els: in.Else.ID, likely: in.Likely}
	switch {
	case rb < 0 && b.IsImm && (w32 || fitsInt32(b.Imm)):
		m.ins = jop.Imm(0, int32(b.Imm), "")
		if w32 {
			m.ins = jop.Imm32(0, int32(b.Imm), "")
		}
	default:
		if rb < 0 {
			rb = s.reg(b)
		}
		m.src = rb
		m.flags |= fSrcUse
		m.ins = jop.Reg(0, 0, "")
		if w32 {
			m.ins = jop.Reg32(0, 0, "")
		}
	}
	m.ins = m.ins.WithReference("")
	s.emit(m)
}

// coreInsn is the instruction whose immediate the loader patches with a
// CO-RE relocation's value: ld_imm64 for BTF type ids and wide values, a
// 64-bit mov otherwise.
func coreInsn(in *ir.Instr) asm.Instruction {
	r := &obj.CoreReloc{Kind: uint32(in.Core.Kind), Type: in.Core.Type, Access: in.Core.Access}
	if in.Core.Kind == ir.CoreTypeIDLocal || in.Core.Kind == ir.CoreTypeIDTarget || !fitsInt32(in.Imm) {
		// Type ids, and values a 32-bit immediate cannot hold (64-bit
		// enumerators), as clang: ld_imm64, which the loaders patch too.
		return obj.WithCore(asm.LoadImm(0, in.Imm, asm.DWord), r)
	}
	return obj.WithCore(asm.Mov.Imm(0, int32(in.Imm)), r)
}
