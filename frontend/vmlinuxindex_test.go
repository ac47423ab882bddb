package frontend

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/bpfcc/bpfcc/frontend/hcache"
)

// The index prunes as pruneVmlinux blanks: every line keeps its tokens at
// the same columns (once its #line directives are laid out), only
// trailing blanks differ.
func TestVindexPruneMatchesBlanking(t *testing.T) {
	src := []byte(miniVmlinux)
	for _, roots := range []map[string]bool{
		{"task_struct": true, "mm": true, "pgd": true, "PIDTYPE_TGID": true},
		{"u32": true},
		{},
		{"handler_t": true, "unused_thing": true, "files": true},
	} {
		want := strings.Split(string(pruneVmlinux(src, roots)), "\n")
		got := layOut(t, string(newVindex(src).prune(src, roots, "v.h")), len(want))
		if len(got) != len(want) {
			t.Fatalf("roots %v: %d lines, want %d", roots, len(got), len(want))
		}
		for i := range got {
			// A tab is one column, as a blank is.
			if strings.TrimRight(got[i], " ") != strings.TrimRight(strings.ReplaceAll(want[i], "\t", " "), " ") {
				t.Errorf("roots %v: line %d: %q, want %q", roots, i+1, got[i], want[i])
			}
		}
	}
}

// layOut expands compact, prune's output, to its lines: each #line
// directive becomes the blank lines up to the line it names.
func layOut(t *testing.T, compact string, n int) []string {
	lines := make([]string, 0, n)
	for _, l := range strings.Split(strings.TrimSuffix(compact, "\n"), "\n") {
		var line int
		if _, err := fmt.Sscanf(l, "#line %d \"v.h\"", &line); err == nil {
			if line-1 < len(lines) {
				t.Fatalf("#line %d goes back (at line %d)", line, len(lines))
			}
			for len(lines) < line-1 {
				lines = append(lines, "")
			}
			continue
		}
		lines = append(lines, l)
	}
	for len(lines) < n {
		lines = append(lines, "")
	}
	return lines
}

func TestVindexRoundTrip(t *testing.T) {
	src := []byte(miniVmlinux)
	ix := newVindex(src)
	got, err := decodeVindex(ix.encode(), len(src))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, ix) || !got.matches(src) {
		t.Errorf("decoded index differs")
	}
}

// A damaged entry decodes to an error or to an index matches refuses, and
// never panics; an index of another header is refused.
func TestVindexCorrupt(t *testing.T) {
	src := []byte(miniVmlinux)
	b := newVindex(src).encode()
	for n := range len(b) {
		if ix, err := decodeVindex(b[:n], len(src)); err == nil {
			t.Errorf("truncated to %d bytes: decoded %d declarations", n, len(ix.decls))
		}
		c := append([]byte{}, b...)
		c[n] ^= 0x5a
		if ix, err := decodeVindex(c, len(src)); err == nil {
			ix.matches(src)
		}
	}
	other := []byte(strings.Replace(miniVmlinux, "typedef unsigned int __u32;", "typedef unsigned int __u32; typedef int x_t;", 1))
	if ix, err := decodeVindex(newVindex(other).encode(), len(src)); err == nil && ix.matches(src) {
		t.Errorf("another header's index matches")
	}
}

// vmlinuxIndex stores the index once and reads it back; a corrupt entry
// is rebuilt with a warning.
func TestVmlinuxIndexCache(t *testing.T) {
	c := hcache.Open(t.TempDir())
	src := []byte(miniVmlinux)
	want := newVindex(src)
	for range 2 {
		if got := vmlinuxIndex(c, "no-such-vmlinux.h", src); !reflect.DeepEqual(got, want) {
			t.Fatalf("cached index differs")
		}
	}
	if w := c.Warnings(); len(w) != 0 {
		t.Errorf("warnings: %q", w)
	}
	key := hcache.NewKey("vmlinux-index", src)
	c.Put(key, []byte("garbage"))
	if got := vmlinuxIndex(c, "no-such-vmlinux.h", src); !reflect.DeepEqual(got, want) {
		t.Fatalf("index from a malformed entry")
	}
	if w := c.Warnings(); len(w) != 1 {
		t.Errorf("warnings: %q, want one", w)
	}
}

// A settled file's index is found by its identity; a file just written,
// or read with other bytes than it now holds, by its content.
func TestVindexKeySettled(t *testing.T) {
	name := filepath.Join(t.TempDir(), "vmlinux.h")
	src := []byte(miniVmlinux)
	if err := os.WriteFile(name, src, 0o644); err != nil {
		t.Fatal(err)
	}
	byContent := hcache.NewKey("vmlinux-index", src)
	now := time.Now()
	if vindexKey(name, src, now) != byContent {
		t.Errorf("a file written now is keyed by its identity")
	}
	later := now.Add(time.Minute)
	byFile := vindexKey(name, src, later)
	if byFile == byContent {
		t.Fatalf("a settled file is keyed by its content")
	}
	if vindexKey(name, src[:len(src)-1], later) != hcache.NewKey("vmlinux-index", src[:len(src)-1]) {
		t.Errorf("bytes of another length than the file's are keyed by the file")
	}
	// Same size, same inode; the modification time tells (set apart
	// here, as a coarse clock may not).
	if err := os.WriteFile(name, []byte(strings.ToUpper(miniVmlinux)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(name, now.Add(-time.Hour), now.Add(-time.Hour)); err != nil {
		t.Fatal(err)
	}
	if k := vindexKey(name, src, later); k == byFile {
		t.Errorf("a rewritten file keeps its key")
	}
}
