package opt

import (
	"testing"

	"github.com/bpfcc/bpfcc/ir"
)

// decidedByWidth decides a compare only when every value of the width
// gives the same outcome, in the compare's signed or unsigned view.
func TestDecidedByWidth(t *testing.T) {
	for _, c := range []struct {
		cond      ir.Cond
		w32       bool
		width     int
		k         int64
		taken, ok bool
	}{
		{ir.Slt, true, 16, 0, false, true},   // (int)u16 < 0
		{ir.Sge, true, 16, 0, true, true},    // (int)u16 >= 0
		{ir.Slt, true, 32, 0, false, false},  // a u32 may be negative as int
		{ir.Slt, false, 32, 0, false, true},  // but not as s64
		{ir.Slt, false, 64, 0, false, false}, // unknown
		{ir.Sgt, true, 8, -1, true, true},
		{ir.Sgt, true, 8, 100, false, false}, // 0..255 either side
		{ir.Ugt, true, 8, 255, false, true},
		{ir.Ult, false, 16, 65536, true, true},
		{ir.Ule, false, 16, 65534, false, false},
		{ir.Eq, true, 16, 70000, false, true},
		{ir.Ne, false, 16, -1, true, true},
		{ir.Eq, true, 16, -65536, false, true},       // low 32 bits 0xffff0000: out of range
		{ir.Eq, true, 16, 0x100000005, false, false}, // low 32 bits 5: in range
		{ir.Eq, true, 16, 5, false, false},
		{ir.Set, false, 4, 0xf0, false, true},
		{ir.Set, false, 4, 0x18, false, false},
	} {
		taken, ok := decidedByWidth(c.cond, c.w32, c.width, c.k)
		if ok != c.ok || ok && taken != c.taken {
			t.Errorf("%v w32=%v width %d vs %d: (%v, %v), want (%v, %v)", c.cond, c.w32, c.width, c.k, taken, ok, c.taken, c.ok)
		}
	}
}

// A CO-RE field offset is a non-negative 32-bit immediate: its sign
// extension (the offset added to a pointer) goes; an enumerator's value
// may be negative, and its extension stays.
func TestCoreValueExtensions(t *testing.T) {
	f := &ir.Func{Name: "prog"}
	b := &ir.Block{}
	f.Blocks = []*ir.Block{b}
	off, ext, val, ext2 := f.NewReg(), f.NewReg(), f.NewReg(), f.NewReg()
	b.Instrs = []*ir.Instr{
		{Op: ir.OpCore, Dst: off, Imm: 532, Core: &ir.CoreReloc{Kind: ir.CoreFieldByteOffset}},
		{Op: ir.OpExt, Dst: ext, A: ir.R(off), Bits: 32, Signed: true},
		{Op: ir.OpCore, Dst: val, Imm: -1, Core: &ir.CoreReloc{Kind: ir.CoreEnumValue}},
		{Op: ir.OpExt, Dst: ext2, A: ir.R(val), Bits: 32, Signed: true},
		{Op: ir.OpRet, A: ir.R(ext)},
	}
	dropExtensions(f, nil)
	if op := b.Instrs[1].Op; op != ir.OpMov {
		t.Errorf("the offset's sign extension is %v, want a copy", op)
	}
	if op := b.Instrs[3].Op; op != ir.OpExt {
		t.Errorf("the enumerator's sign extension is %v, want it kept", op)
	}
}
