package dwarfvars

import (
	"reflect"
	"testing"
)

// FuzzParseProbe checks that ParseProbe never panics and that a parsed
// probe's String form parses back to the same probe.
func FuzzParseProbe(f *testing.F) {
	for _, s := range []string{"main", "f+0x10", "f:3", "a.c:7", "f%return", "/bin/x:f", "./a:b.c:1", "h.constprop.0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParseProbe(s)
		if err != nil {
			return
		}
		q, err := ParseProbe(p.String())
		if err != nil {
			t.Fatalf("%q parsed to %+v, whose String %q does not parse: %v", s, p, p.String(), err)
		}
		q.Spec, q.Binary = p.Spec, p.Binary
		if !reflect.DeepEqual(p, q) {
			t.Fatalf("%q: %+v != %+v after round trip", s, p, q)
		}
	})
}

// FuzzParseExpr checks that ParseExpr never panics and that accepted
// expressions name a variable.
func FuzzParseExpr(f *testing.F) {
	for _, s := range []string{"v", "v->f", "v.f.g", "v[3]", "*v", "&v", "v->a[2].b", "(v)->x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		e, err := ParseExpr(s)
		if err != nil {
			return
		}
		if e.Var == "" {
			t.Fatalf("%q: accepted without a variable", s)
		}
	})
}
