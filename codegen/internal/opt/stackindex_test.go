package opt

import (
	"testing"

	"github.com/bpfcc/bpfcc/ir"
)

func TestStackIndexDisjoint(t *testing.T) {
	s0, s1 := &ir.Slot{Size: 800}, &ir.Slot{Size: 8}
	at := func(slot *ir.Slot, leaf ir.Reg, c, off int64, shift uint) stackIndex {
		return stackIndex{slot: slot, leaf: leaf, c: c, off: off, shift: shift, expr: "x"}
	}
	for _, tc := range []struct {
		name         string
		a            stackIndex
		size         int
		b            stackIndex
		size2        int
		wantDisjoint bool
	}{
		{"f[i] and f[i+1], 8 bytes each", at(s0, 3, 0, 0, 3), 8, at(s0, 3, 1, 0, 3), 8, true},
		{"f[i+1] and f[i]", at(s0, 3, 1, 0, 3), 8, at(s0, 3, 0, 0, 3), 8, true},
		{"f[i] and f[i]", at(s0, 3, 0, 0, 3), 8, at(s0, 3, 0, 0, 3), 8, false},
		{"f[i] and f[i-1]: 2^32-1 apart in the low bits", at(s0, 3, 0, 0, 3), 8, at(s0, 3, -1, 0, 3), 8, true},
		{"f[i] (8 bytes) and byte 4 of f[i]", at(s0, 3, 0, 0, 3), 8, at(s0, 3, 0, 4, 3), 1, false},
		{"byte 7 of f[i] and f[i+1]", at(s0, 3, 0, 7, 3), 1, at(s0, 3, 1, 0, 3), 8, true},
		{"f[i] 8 bytes and 16 bytes at f[i-1]", at(s0, 3, 0, 0, 3), 8, at(s0, 3, -1, 0, 3), 16, false},
		{"unscaled: 4 bytes at i and at i+2", at(s0, 3, 0, 0, 0), 4, at(s0, 3, 2, 0, 0), 4, false},
		{"unscaled: 2 bytes at i and at i+2", at(s0, 3, 0, 0, 0), 2, at(s0, 3, 2, 0, 0), 2, true},
		{"other index register", at(s0, 3, 0, 0, 3), 8, at(s0, 4, 1, 0, 3), 8, false},
		{"other scale", at(s0, 3, 0, 0, 3), 8, at(s0, 3, 1, 0, 2), 8, false},
		{"other slot", at(s0, 3, 0, 0, 3), 8, at(s1, 3, 0, 0, 3), 8, true},
	} {
		if got := tc.a.disjoint(tc.size, tc.b, tc.size2); got != tc.wantDisjoint {
			t.Errorf("%s: disjoint = %v, want %v", tc.name, got, tc.wantDisjoint)
		}
	}
}
