package lower

import (
	"modernc.org/token"

	"github.com/bpfcc/bpfcc/ir"
)

// loadBitfield reads the storage unit, shifts the field down and extends it.
func (fl *fnLowerer) loadBitfield(lv lvalue) value {
	f := lv.field
	unit := int(f.AccessBytes())
	bits := int64(f.ValueBits())
	shift := int64(f.OffsetBits())
	var r ir.Reg
	if n := fl.l.splitBits(f); n > 0 {
		if lv.core.relocated() {
			fl.l.errorf(posNode{token.Position{Filename: fl.pos.File, Line: fl.pos.Line, Column: fl.pos.Col}}, "CO-RE access to bit-field %s, whose bits span more than 8 bytes, is not supported", f.Name())
		}
		r, bits, shift = fl.loadWideBits(lv, wideBitOf(f, n)), n, 0
	} else if lv.core.relocated() && lv.sym == "" {
		// A CO-RE bit-field: the loader relocates the offset of the unit
		// libbpf computes (the field type's size, aligned down, widened
		// until it covers the field), so load that unit, as clang does.
		base, local := fl.coreBase(lv)
		rel := lv
		rel.off = local
		byteOff, size := int64(fieldInfo(ir.CoreFieldByteOffset, rel)), int(fieldInfo(ir.CoreFieldByteSize, rel))
		shift = local*8 + int64(f.OffsetBits()) - byteOff*8
		r = fl.tmp()
		fl.emit(&ir.Instr{Op: ir.OpLoad, Dst: r, A: ir.R(base), Off: byteOff, Size: size, Space: lv.memSpace(),
			Core: &ir.CoreReloc{Kind: ir.CoreFieldByteOffset, Type: fl.l.btf.coreRoot(lv.core.root), Access: lv.core.access()}})
	} else {
		base, off := fl.memBase(lv)
		r = fl.loadUnit(base, off, unit, lv.alignment(), lv.memSpace())
	}
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
	if n := fl.l.splitBits(f); n > 0 {
		m := fl.tmp()
		if n < 64 {
			fl.andConst(m, fl.toReg(v), int64(uint64(1)<<n-1))
		} else {
			fl.emit(&ir.Instr{Op: ir.OpMov, Dst: m, A: v.op})
		}
		fl.storeWideBits(lv, wideBitOf(f, n), m)
		return
	}
	unit := int(f.AccessBytes())
	base, off := fl.memBase(lv)
	bits := uint(f.ValueBits())
	shift := uint(f.OffsetBits())
	mask := uint64(1)<<bits - 1
	if bits == 64 {
		mask = ^uint64(0)
	}
	old := fl.loadUnit(base, off, unit, lv.alignment(), lv.memSpace())
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
	fl.storeUnit(base, off, unit, lv.alignment(), res, lv.memSpace())
}

// unitPieces splits an access of n bytes (1 to 8) at an address aligned
// to al into loads or stores BPF has and the verifier accepts: sizes that
// are powers of two, each at a multiple of its size. Packed structs give
// units of 3, 5, 6 or 7 bytes and misaligned members.
func unitPieces(n, al int) (offs, sizes []int) {
	for pos := 0; pos < n; {
		a := al
		if pos > 0 {
			a = min(al, pos&-pos)
		}
		size := 8
		for size > n-pos || size > a {
			size /= 2
		}
		offs, sizes = append(offs, pos), append(sizes, size)
		pos += size
	}
	return offs, sizes
}

// loadUnit reads the n bytes at base+off, aligned to al, into the low
// bytes of a register (zero-extended).
func (fl *fnLowerer) loadUnit(base ir.Reg, off int64, n, al int, space ir.Space) ir.Reg {
	offs, sizes := unitPieces(n, al)
	var acc ir.Reg
	for i := range offs {
		r := fl.tmp()
		fl.emit(&ir.Instr{Op: ir.OpLoad, Dst: r, A: ir.R(base), Off: off + int64(offs[i]), Size: sizes[i], Space: space})
		if i == 0 {
			acc = r
			continue
		}
		sh, or := fl.tmp(), fl.tmp()
		fl.emit(&ir.Instr{Op: ir.OpALU, ALU: ir.Lsh, Dst: sh, A: ir.R(r), B: ir.Imm(int64(8 * offs[i]))})
		fl.emit(&ir.Instr{Op: ir.OpALU, ALU: ir.Or, Dst: or, A: ir.R(acc), B: ir.R(sh)})
		acc = or
	}
	return acc
}

// storeUnit writes the low n bytes of v to base+off, aligned to al.
func (fl *fnLowerer) storeUnit(base ir.Reg, off int64, n, al int, v ir.Reg, space ir.Space) {
	offs, sizes := unitPieces(n, al)
	for i := range offs {
		part := v
		if offs[i] > 0 {
			part = fl.tmp()
			fl.emit(&ir.Instr{Op: ir.OpALU, ALU: ir.Rsh, Dst: part, A: ir.R(v), B: ir.Imm(int64(8 * offs[i]))})
		}
		fl.emit(&ir.Instr{Op: ir.OpStore, A: ir.R(base), B: ir.R(part), Off: off + int64(offs[i]), Size: sizes[i], Space: space})
	}
}

// andConst emits dst = src & c, using a register for wide constants.
func (fl *fnLowerer) andConst(dst, src ir.Reg, c int64) {
	op := ir.Imm(c)
	if c < -1<<31 || c > 1<<31-1 {
		op = ir.R(fl.toReg(value{op: op}))
	}
	fl.emit(&ir.Instr{Op: ir.OpALU, ALU: ir.And, Dst: dst, A: ir.R(src), B: op})
}

// storedValue is the value an assignment to lv yields: for a bit-field the
// value stored, truncated to its width and extended by its type's
// signedness (C11 6.5.16p3), otherwise v itself.
func (fl *fnLowerer) storedValue(lv lvalue, v value) value {
	if lv.field == nil || !lv.field.IsBitfield() || isAggregate(lv.t) {
		return v
	}
	bits := fl.l.bitWidth(lv.field)
	if bits >= 64 || bits <= 0 {
		return v
	}
	sh := 64 - bits
	if v.op.IsImm {
		x := v.op.Imm << sh
		if isSigned(lv.t) {
			x >>= sh
		} else {
			x = int64(uint64(x) >> sh)
		}
		return value{op: ir.Imm(x), t: v.t}
	}
	up, down := fl.tmp(), fl.tmp()
	op := ir.Rsh
	if isSigned(lv.t) {
		op = ir.Arsh
	}
	fl.emit(&ir.Instr{Op: ir.OpALU, ALU: ir.Lsh, Dst: up, A: v.op, B: ir.Imm(sh)})
	fl.emit(&ir.Instr{Op: ir.OpALU, ALU: op, Dst: down, A: ir.R(up), B: ir.Imm(sh)})
	if isSigned(lv.t) {
		fl.setFact(down, fact{sext: int(bits)})
	} else {
		fl.setFact(down, fact{zext: int(bits)})
	}
	return value{op: ir.R(down), t: v.t}
}
