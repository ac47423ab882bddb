package filecheck

import (
	"strings"
	"testing"
)

const listing = `prog: (section socket, 4 insns, stack 0)
   0: r0 = 1
   1: r1 = *(u32 *)(r10 - 8)
   2: if r1 > 5 goto +1
   3: exit

`

func TestMatch(t *testing.T) {
	for _, tc := range []struct {
		checks string
		want   []string // substrings of the errors, in order; none: success
	}{
		{"; CHECK: r0 = 1\n; CHECK-NEXT: r1 = *(u32 *)(r10 - 8)", nil},
		{"; CHECK: prog:\n; CHECK-SAME: stack 0", nil},
		{"; CHECK: r0 = {{[0-9]+}}\n; CHECK-NOT: call\n; CHECK: exit", nil},
		{"; CHECK:   r0   =  1", nil},
		{"; CHECK: exit\n; CHECK-EMPTY:", nil},
		{"; CHECK: r0 = 2", []string{"CHECK: r0 = 2: no match"}},
		{"; CHECK: r0 = 1\n; CHECK-NEXT: exit", []string{`CHECK-NEXT: exit: line 3 is "   1: r1`}},
		{"; CHECK: r0 = 1\n; CHECK-NOT: r10\n; CHECK: exit", []string{"CHECK-NOT: r10: matched line 3"}},
		{"; CHECK: exit\n; CHECK: r0", []string{"CHECK: r0: no match after line 5"}},
		{"; CHECK: prog:\n; CHECK-SAME: section socket\n; CHECK-SAME: socket", []string{"not in the rest of line 1"}},
		{"; CHECK-NOT: goto", []string{"CHECK-NOT: goto: matched line 4"}},
		// Variables.
		{"; CHECK: [[R:r[0-9]]] = *(u32 *)\n; CHECK-NEXT: if [[R]] > 5", nil},
		{"; CHECK: [[R:r[0-9]]] = 1\n; CHECK: if [[R]] > 5", []string{"CHECK: if [[R]] > 5: no match after line 2"}},
		{"; CHECK: [[R:r[0-9]]] = 1\n; CHECK-NOT: [[R]] =\n; CHECK: exit", nil},
		{"; CHECK: r0 = [[N:[0-9]+]]\n; CHECK-NOT: r0 = [[N]]", nil},
		{"; CHECK: [[X:r[0-9]]] = *(u32\n; CHECK-NOT: if [[X]]", []string{"CHECK-NOT: if [[X]]: matched line 4"}},
		{"; CHECK: if r1 > [[N:[0-9]]]\n; CHECK-SAME: goto +[[M:[0-9]]]\n; CHECK: exit\n; CHECK-NOT: r0 = [[M]]", nil},
		{"; CHECK: prog: (section [[S:[a-z]+]],\n; CHECK: [[S]]", []string{"CHECK: [[S]]: no match after line 1"}},
		{"; CHECK: r1 = [[U]]", []string{"variable U is not bound"}},
		{"; CHECK: [[A:r[0-9]]] = [[B:[0-9]]]\n; CHECK-NEXT: = [[B]]", []string{"CHECK-NEXT: = [[B]]: line 3 is"}},
	} {
		ds, err := Parse(tc.checks)
		if err != nil {
			t.Fatal(err)
		}
		errs := Match(listing, ds)
		if len(errs) != len(tc.want) {
			t.Errorf("%q: errors %v, want %d", tc.checks, errs, len(tc.want))
			continue
		}
		for i, e := range errs {
			if !strings.Contains(e.Error(), tc.want[i]) {
				t.Errorf("%q: error %q, want %q", tc.checks, e, tc.want[i])
			}
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, s := range []string{"; CHECK:", "; CHECK: {{[a-", "; CHECK-EMPTY: x", "; CHECK: {{x",
		"; CHECK: [[R:r[0-9]]] [[R]]", "; CHECK: [[R:a]] [[R:b]]", "; CHECK: [[1x]]", "; CHECK: [[R:(]]", "; CHECK-NOT: [[R:r1]]"} {
		if _, err := Parse(s); err == nil {
			t.Errorf("%q accepted", s)
		}
	}
}
