package opt

import (
	"fmt"
	"slices"
	"testing"
)

// TestPassOrder checks the table against passOrder, that module passes
// come first and only at the top level, that every entry has exactly one
// kind, and that names are unique (-d=ir:after=PASS names one).
func TestPassOrder(t *testing.T) {
	names := PassNames()
	seen := map[string]bool{}
	for _, n := range names {
		if seen[n] {
			t.Errorf("pass %s twice in the table", n)
		}
		seen[n] = true
	}
	for _, e := range orderViolations(names) {
		t.Error(e)
	}
	var check func(ps []pass, top bool)
	check = func(ps []pass, top bool) {
		funcs := false
		for _, p := range ps {
			kinds := 0
			for _, set := range []bool{p.mod != nil, p.fn != nil, p.loop != nil} {
				if set {
					kinds++
				}
			}
			if kinds != 1 || (p.body != nil) != (p.loop != nil) {
				t.Errorf("pass %s: want exactly one of mod, fn, loop (with a body)", p.name)
			}
			if p.mod != nil && (funcs || !top) {
				t.Errorf("module pass %s after function passes", p.name)
			}
			funcs = funcs || p.mod == nil
			check(p.body, false)
		}
	}
	check(passes, true)
}

// orderViolations reports the constraints of passOrder that names breaks.
func orderViolations(names []string) []string {
	var errs []string
	for _, c := range passOrder {
		i, j := slices.Index(names, c.a), slices.Index(names, c.b)
		switch {
		case i < 0 || j < 0:
			errs = append(errs, fmt.Sprintf("passOrder names %s before %s: not both in the table", c.a, c.b))
		case i >= j:
			errs = append(errs, fmt.Sprintf("pass %s must run before %s: %s", c.a, c.b, c.why))
		}
	}
	return errs
}

// TestPassOrderCatches: moving legalize first breaks its constraints.
func TestPassOrderCatches(t *testing.T) {
	names := PassNames()
	i := slices.Index(names, "legalize")
	moved := append([]string{"legalize"}, slices.Delete(slices.Clone(names), i, i+1)...)
	if len(orderViolations(moved)) == 0 {
		t.Error("legalize before inline not reported")
	}
}
