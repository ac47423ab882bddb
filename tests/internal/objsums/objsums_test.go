package objsums

import (
	"path/filepath"
	"slices"
	"testing"
)

func TestCompare(t *testing.T) {
	var s Sums
	s.Add("a.c", []byte("one"))
	s.Add("b c/d.c", []byte("two"))
	path := filepath.Join(t.TempDir(), "sums")
	if err := s.Write(path, "made by the test"); err != nil {
		t.Fatal(err)
	}
	m, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(m.Header, []string{"made by the test"}) {
		t.Errorf("header = %q", m.Header)
	}
	if d := m.Compare(&s, true); len(d) != 0 {
		t.Errorf("same objects differ: %q", d)
	}
	var now Sums
	now.Add("a.c", []byte("one!"))
	now.Add("e.c", []byte("new"))
	want := []string{"a.c: object differs from the manifest's", "b c/d.c: in the manifest, not compiled now", "e.c: compiles now, not in the manifest"}
	if d := m.Compare(&now, true); !slices.Equal(d, want) {
		t.Errorf("Compare = %q, want %q", d, want)
	}
	if d := m.Compare(&now, false); len(d) != 2 {
		t.Errorf("Compare of a subset = %q", d)
	}
}
