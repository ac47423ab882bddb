package ir

import "testing"

func TestCondSigned(t *testing.T) {
	for c, want := range map[Cond]Cond{Ult: Slt, Ugt: Sgt, Ule: Sle, Uge: Sge, Slt: Slt, Eq: Eq, Ne: Ne} {
		if got := c.Signed(); got != want {
			t.Errorf("%v.Signed() = %v, want %v", c, got, want)
		}
	}
}
