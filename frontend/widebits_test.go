package frontend

import (
	"errors"
	"testing"

	"modernc.org/token"
)

func TestSplitWideBitFields(t *testing.T) {
	at := map[token.Position]string{{Filename: "a.h", Line: 2, Column: 11}: "ub2"}
	cases := []struct {
		src, want string
		ok        bool
	}{
		{"struct s {\n\tuint64_t\tub2: 61;\n}", "struct s {\n\tuint64_t\tub2: 33, : ( 61) - 33;\n}", true},
		{"struct s {\n\tuint64_t\tub2 : W(1), x: 3;\n}", "struct s {\n\tuint64_t\tub2 : 33, : ( W(1)) - 33, x: 3;\n}", true},
		// The attribute would go to the filler.
		{"struct s {\n\tuint64_t\tub2: 61 __attribute__((aligned(8)));\n}", "", false},
		// A macro made the declarator: its text is not there.
		{"struct s {\n\tFIELD(ub2, 61);\n}", "", false},
	}
	for _, c := range cases {
		got, ok := splitWideBitFields("a.h", []byte(c.src), at)
		if ok != c.ok || ok && string(got) != c.want {
			t.Errorf("%q: got %q, %v; want %q, %v", c.src, got, ok, c.want, c.ok)
		}
	}
	if got, ok := splitWideBitFields("b.h", []byte("x"), at); !ok || string(got) != "x" {
		t.Errorf("another file changed: %q %v", got, ok)
	}
}

func TestWideBitFieldsOnlyThem(t *testing.T) {
	one := "x.h:3:4: bit-field b occupies more than 8 bytes, which Config.ABILayout does not support (check.go:1:)"
	if at, ok := wideBitFields(errors.New(one)); !ok || at[token.Position{Filename: "x.h", Line: 3, Column: 4}] != "b" {
		t.Errorf("got %v %v", at, ok)
	}
	if _, ok := wideBitFields(errors.New(one + "\nx.c:1:1: undefined: y")); ok {
		t.Error("another error too: the split must not be tried")
	}
}
