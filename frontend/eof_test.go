package frontend

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A main file that includes itself is refused before cc expands it
// forever, under any spelling of its name; one that only mentions its
// name, or includes another file, is not.
func TestSelfInclude(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "self.c")
	for _, tc := range []struct {
		src  string
		line int // 0: no diagnostic
	}{
		{"int x;\n#include \"self.c\"\n", 2},
		{"#include \"./self.c\"\n", 1},
		{"#include \"../" + filepath.Base(dir) + "/self.c\"\n", 1},
		{"// self.c is this file\nint x;\n", 0},
		{"#include \"other.h\"\n", 0},
	} {
		d := checkSelfInclude(path, []byte(tc.src))
		switch {
		case tc.line == 0 && d != nil:
			t.Errorf("%q: unexpected %v", tc.src, d)
		case tc.line != 0 && (d == nil || d.Line != tc.line || !strings.Contains(d.Msg, "includes itself")):
			t.Errorf("%q: got %v, want an error at line %d", tc.src, d, tc.line)
		}
	}
	// And through Parse, with a diagnostic instead of a hang.
	if err := os.WriteFile(path, []byte("#include \"self.c\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Parse(path, Options{}); err == nil || !strings.Contains(err.Error(), "includes itself") {
		t.Errorf("Parse: %v, want the self-include error", err)
	}
}
