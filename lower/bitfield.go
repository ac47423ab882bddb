package lower

import (
	"github.com/bpfcc/bpfcc/ir"
)

// loadBitfield reads the storage unit, shifts the field down and extends it.
func (fl *fnLowerer) loadBitfield(lv lvalue) value {
	f := lv.field
	unit := int(f.AccessBytes())
	base, off := fl.memBase(lv)
	r := fl.tmp()
	fl.emit(&ir.Instr{Op: ir.OpLoad, Dst: r, A: ir.R(base), Off: off, Size: unit, Space: lv.memSpace()})
	bits := int64(f.ValueBits())
	shift := int64(f.OffsetBits())
	// Move the field to the top of 64 bits, then shift back down with the
	// signedness of the field's type.
	up := 64 - shift - bits
	cur := r
	if up > 0 {
		t := fl.tmp()
		fl.emit(&ir.Instr{Op: ir.OpALU, ALU: ir.Lsh, Dst: t, A: ir.R(cur), B: ir.Imm(up)})
		cur = t
	}
	down := 64 - bits
	if down > 0 {
		t := fl.tmp()
		op := ir.Rsh
		if isSigned(lv.t) {
			op = ir.Arsh
		}
		fl.emit(&ir.Instr{Op: ir.OpALU, ALU: op, Dst: t, A: ir.R(cur), B: ir.Imm(down)})
		cur = t
	}
	if isSigned(lv.t) {
		fl.setFact(cur, fact{sext: int(bits)})
	} else {
		fl.setFact(cur, fact{zext: int(bits)})
	}
	return value{op: ir.R(cur), t: lv.t}
}

// storeBitfield does a read-modify-write of the storage unit.
func (fl *fnLowerer) storeBitfield(lv lvalue, v value) {
	f := lv.field
	unit := int(f.AccessBytes())
	base, off := fl.memBase(lv)
	bits := uint(f.ValueBits())
	shift := uint(f.OffsetBits())
	mask := uint64(1)<<bits - 1
	if bits == 64 {
		mask = ^uint64(0)
	}
	old := fl.tmp()
	fl.emit(&ir.Instr{Op: ir.OpLoad, Dst: old, A: ir.R(base), Off: off, Size: unit, Space: lv.memSpace()})
	keep := ^(mask << shift)
	cleared := fl.tmp()
	fl.andConst(cleared, old, int64(keep))
	var nv ir.Reg
	if v.op.IsImm {
		nv = fl.toReg(value{op: ir.Imm(int64((uint64(v.op.Imm) & mask) << shift))})
	} else {
		m := fl.tmp()
		fl.andConst(m, v.op.Reg, int64(mask))
		nv = m
		if shift > 0 {
			s := fl.tmp()
			fl.emit(&ir.Instr{Op: ir.OpALU, ALU: ir.Lsh, Dst: s, A: ir.R(m), B: ir.Imm(int64(shift))})
			nv = s
		}
	}
	res := fl.tmp()
	fl.emit(&ir.Instr{Op: ir.OpALU, ALU: ir.Or, Dst: res, A: ir.R(cleared), B: ir.R(nv)})
	fl.emit(&ir.Instr{Op: ir.OpStore, A: ir.R(base), B: ir.R(res), Off: off, Size: unit, Space: lv.memSpace()})
}

// andConst emits dst = src & c, using a register for wide constants.
func (fl *fnLowerer) andConst(dst, src ir.Reg, c int64) {
	op := ir.Imm(c)
	if c < -1<<31 || c > 1<<31-1 {
		op = ir.R(fl.toReg(value{op: op}))
	}
	fl.emit(&ir.Instr{Op: ir.OpALU, ALU: ir.And, Dst: dst, A: ir.R(src), B: op})
}
