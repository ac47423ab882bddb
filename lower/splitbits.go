package lower

import (
	"modernc.org/cc/v4"

	"github.com/bpfcc/bpfcc/ir"
)

// A packed bit-field can straddle 9 bytes; the front end has cc see it as
// two bit-fields, the named first part and an unnamed filler right after
// it (see frontend.Unit.SplitBitField). These functions give back the
// field as declared.

// splitBits returns the declared width of bit-field f when the front end
// split it, else 0.
func (l *lowerer) splitBits(f *cc.Field) int64 {
	if f == nil || !f.IsBitfield() || !l.u.SplitBitField(f.Declarator()) {
		return 0
	}
	var next *cc.Field
	switch p := f.ParentType().(type) {
	case *cc.StructType:
		next = p.FieldByIndex(f.Index() + 1)
	case *cc.UnionType:
		next = p.FieldByIndex(f.Index() + 1)
	}
	if next == nil {
		return 0
	}
	return f.ValueBits() + next.ValueBits()
}

// bitWidth is f's declared width in bits.
func (l *lowerer) bitWidth(f *cc.Field) int64 {
	if n := l.splitBits(f); n > 0 {
		return n
	}
	return f.ValueBits()
}

// wideBit describes a split bit-field: its bits start at bit shift (1 to
// 7) of byte delta past cc's offset of the field and take 9 bytes.
type wideBit struct {
	delta int64
	shift int
	bits  int
}

func wideBitOf(f *cc.Field, bits int64) wideBit {
	abs := int64(f.OffsetBits())
	return wideBit{delta: abs / 8, shift: int(abs % 8), bits: int(bits)}
}

// wideBase returns the address and alignment of the first byte of the
// split bit-field's bits.
func (fl *fnLowerer) wideBase(lv lvalue, w wideBit) (ir.Reg, int64, int) {
	base, off := fl.memBase(lv)
	al := lv.alignment()
	if w.delta != 0 {
		al = min(al, int(w.delta&-w.delta))
	}
	return base, off + w.delta, al
}

// loadWideBits reads a split bit-field's 9 bytes as two units and returns
// its bits in the low bits of a register (the upper bits are garbage).
func (fl *fnLowerer) loadWideBits(lv lvalue, w wideBit) ir.Reg {
	base, off, al := fl.wideBase(lv, w)
	lo := fl.loadUnit(base, off, 8, al, lv.memSpace())
	hi := fl.loadUnit(base, off+8, 1, 1, lv.memSpace())
	down, up, r := fl.tmp(), fl.tmp(), fl.tmp()
	fl.emit(&ir.Instr{Op: ir.OpALU, ALU: ir.Rsh, Dst: down, A: ir.R(lo), B: ir.Imm(int64(w.shift))})
	fl.emit(&ir.Instr{Op: ir.OpALU, ALU: ir.Lsh, Dst: up, A: ir.R(hi), B: ir.Imm(int64(64 - w.shift))})
	fl.emit(&ir.Instr{Op: ir.OpALU, ALU: ir.Or, Dst: r, A: ir.R(down), B: ir.R(up)})
	return r
}

// storeWideBits writes the low w.bits of v (masked) into a split bit-field,
// keeping the neighbouring bits of its first and last byte.
func (fl *fnLowerer) storeWideBits(lv lvalue, w wideBit, v ir.Reg) {
	base, off, al := fl.wideBase(lv, w)
	lo := fl.loadUnit(base, off, 8, al, lv.memSpace())
	hi := fl.loadUnit(base, off+8, 1, 1, lv.memSpace())
	loKeep, hiKeep := fl.tmp(), fl.tmp()
	fl.andConst(loKeep, lo, int64(1)<<w.shift-1)
	fl.andConst(hiKeep, hi, ^(int64(1)<<(w.shift+w.bits-64) - 1))
	loNew, hiNew, loRes, hiRes := fl.tmp(), fl.tmp(), fl.tmp(), fl.tmp()
	fl.emit(&ir.Instr{Op: ir.OpALU, ALU: ir.Lsh, Dst: loNew, A: ir.R(v), B: ir.Imm(int64(w.shift))})
	fl.emit(&ir.Instr{Op: ir.OpALU, ALU: ir.Rsh, Dst: hiNew, A: ir.R(v), B: ir.Imm(int64(64 - w.shift))})
	fl.emit(&ir.Instr{Op: ir.OpALU, ALU: ir.Or, Dst: loRes, A: ir.R(loKeep), B: ir.R(loNew)})
	fl.emit(&ir.Instr{Op: ir.OpALU, ALU: ir.Or, Dst: hiRes, A: ir.R(hiKeep), B: ir.R(hiNew)})
	fl.storeUnit(base, off, 8, al, loRes, lv.memSpace())
	fl.storeUnit(base, off+8, 1, 1, hiRes, lv.memSpace())
}

// putWideBits stores the low w.bits of c into the split bit-field at byte
// off of buf, one bit at a time: it spans more than a uint64.
func putWideBits(buf []byte, off int64, w wideBit, c uint64) {
	for i := 0; i < w.bits; i++ {
		pos := int64(w.shift + i)
		b := &buf[off+w.delta+pos/8]
		*b &^= 1 << (pos % 8)
		*b |= byte(c>>i&1) << (pos % 8)
	}
}
