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
