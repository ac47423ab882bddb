package frontend

import (
	"path/filepath"
	"testing"

	"github.com/bpfcc/bpfcc/frontend/hcache"
)

// An absolute #include name is opened as it is, in both forms and in
// __has_include, not under each include directory.
func TestAbsoluteInclude(t *testing.T) {
	dir := t.TempDir()
	hdr := filepath.Join(dir, "abs.h")
	writeFile(t, hdr, "#define FROM_ABS 7\n")
	src := "#include \"" + hdr + "\"\n#include <" + hdr + ">\n" +
		"#if !__has_include(\"" + hdr + "\") || __has_include(\"" + filepath.Join(dir, "none.h") + "\")\n#error has_include\n#endif\n" +
		"int x = FROM_ABS;\n"
	if _, err := Parse(filepath.Join(dir, "m.c"), Options{Source: []byte(src)}); err != nil {
		t.Fatal(err)
	}
}

// -include files are read before the main file (a relative name from the
// working directory), also with a header cache, which they turn off: the
// cached preamble would be read without them.
func TestCommandLineInclude(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "config.h"), "#define LIMIT 9\n")
	main := filepath.Join(dir, "m.c")
	writeFile(t, filepath.Join(dir, "other.h"), "typedef int other_t;\n")
	writeFile(t, main, "#include \"other.h\"\nother_t limit = LIMIT;\n_Static_assert(LIMIT == 9, \"config.h read first\");\n")
	t.Chdir(dir)
	for range 2 {
		if _, err := Parse(main, Options{Includes: []string{"config.h"}, Cache: hcache.Open(filepath.Join(dir, "cache"))}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := Parse(main, Options{}); err == nil {
		t.Error("compiles without config.h")
	}
}
