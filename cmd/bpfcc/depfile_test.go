package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// -MD/-MMD write the make rule clang writes: the object, the source and
// the headers read (-MMD without the system ones), -MF/-MT/-MQ name the
// file and the targets, -MP adds an empty rule per header; the same
// with the header cache cold and warm, since a warm compile reads the
// cached headers from the cache. -nostdlib and -Xclang OPT are accepted.
func TestDepFile(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "local.h"), []byte("#define LOCAL 1\n"), 0o644)
	src := filepath.Join(dir, "p q.c")
	os.WriteFile(src, []byte("#include <linux/types.h>\n#include \"local.h\"\n__u32 v = LOCAL;\n"), 0o644)
	obj := filepath.Join(dir, "p.o")
	for _, run2 := range []string{"cold", "warm"} {
		var so, se bytes.Buffer
		if code := run([]string{"-target", "bpf", "-O2", "-nostdlib", "-Xclang", "-fdebug-prefix-map=/a=.", "-MMD", "-MP", "-c", src, "-o", obj}, &so, &se); code != exitOK {
			t.Fatalf("%s -MMD: exit %d: %s", run2, code, se.String())
		}
		b, err := os.ReadFile(filepath.Join(dir, "p.d"))
		if err != nil {
			t.Fatal(err)
		}
		local := filepath.Join(dir, "local.h")
		want := obj + ": \\\n  " + strings.ReplaceAll(src, " ", "\\ ") + " \\\n  " + local + "\n\n" + local + ":\n"
		if string(b) != want {
			t.Errorf("%s -MMD -MP:\n%s\nwant:\n%s", run2, b, want)
		}
	}
	var so, se bytes.Buffer
	mf := filepath.Join(dir, "deps.mk")
	if code := run([]string{"-MD", "-MF", mf, "-MT", "t1", "-MQ", "a$b", "-c", src, "-o", obj}, &so, &se); code != exitOK {
		t.Fatalf("-MD: exit %d: %s", code, se.String())
	}
	b, _ := os.ReadFile(mf)
	if !strings.HasPrefix(string(b), "t1 a$$b: \\\n") || !strings.Contains(string(b), "local.h") {
		t.Errorf("-MD -MF -MT -MQ:\n%s", b)
	}
	if _, err := os.Stat("/usr/include/linux/types.h"); err == nil && !strings.Contains(string(b), "/usr/include/linux/types.h") {
		t.Errorf("-MD leaves out the system header:\n%s", b)
	}
}
