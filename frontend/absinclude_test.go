package frontend

import (
	"path/filepath"
	"testing"
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
