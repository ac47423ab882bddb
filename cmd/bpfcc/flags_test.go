package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// The clang options BPF build systems pass: -isystem after the -I
// directories whatever the order given, -idirafter after the system
// headers, -nostdinc without them, -std=, -x c, and the options with no
// effect on a BPF object; LLVM-only and big-endian requests are refused
// with a reason.
func TestClangCompatFlags(t *testing.T) {
	c, err := parseArgs([]string{"-isystem", "/s1", "-I/i1", "-isystem/s2", "-idirafter", "/a1", "-std=gnu11", "-x", "c",
		"-fno-stack-protector", "-mlittle-endian", "-target", "bpf", "-Wno-compare-distinct-pointer-types",
		"-fpie", "-fPIC", "-ferror-limit=0", "-fmacro-prefix-map=/a=.", "-fdebug-prefix-map=/a=.",
		"-fdebug-default-version=4", "-gdwarf-4", "-mllvm", "-bpf-expand-memcpy-in-order", "-mattr=+alu32", "-Oz",
		"-fno-inline", "-fvisibility=hidden", "-fno-builtin-memcpy", "-fwrapv", "-fdebug-compilation-dir", ".",
		"-fmerge-all-constants",
		"-fdebug-compilation-dir=/src", "--target=bpf", "--target", "bpfel-unknown-none", "p.c"})
	if err != nil {
		t.Fatal(err)
	}
	o := c.compileOptions()
	if !slices.Equal(o.IncludeDirs, []string{"/i1", "/s1", "/s2"}) || !slices.Equal(o.AfterIncludeDirs, []string{"/a1"}) || o.Std != "gnu11" || c.input != "p.c" || c.binary != "" {
		t.Errorf("include dirs %q, after %q, std %q, input %q, binary %q", o.IncludeDirs, o.AfterIncludeDirs, o.Std, c.input, c.binary)
	}
	if c, err := parseArgs([]string{"-x", "./traced", "p.c"}); err != nil || c.binary != "./traced" {
		t.Errorf("-x BINARY: %q, %v", c.binary, err)
	}
	for _, tc := range []struct{ arg, want string }{
		{"-std=c++17", "not a C standard"},
		{"-std=k&r", "unknown -std=k&r"},
		{"-emit-llvm", "no LLVM IR"},
		{"-mbig-endian", "little-endian"},
		{"-march=x86-64", "BPF only"},
		{"-funsigned-char", "char is signed"},
		{"-fshort-enums", "int-sized"},
		{"--target=bpfeb", "big-endian"},
		{"--target=x86_64-linux-gnu", "unsupported target"},
	} {
		var so, se bytes.Buffer
		if code := run([]string{tc.arg, "p.c"}, &so, &se); code != exitUsage || !strings.Contains(se.String(), tc.want) {
			t.Errorf("%s: exit %d, stderr %q; want exit %d and %q", tc.arg, code, se.String(), exitUsage, tc.want)
		}
	}

	// End to end: a header in an -isystem directory shadows the system
	// one, in an -idirafter directory it does not, and -nostdinc leaves
	// the system's out.
	dir := t.TempDir()
	for _, d := range []string{"sys/linux", "after/linux"} {
		os.MkdirAll(filepath.Join(dir, d), 0o755)
	}
	os.WriteFile(filepath.Join(dir, "sys/linux/types.h"), []byte("#define FROM 1\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "after/linux/types.h"), []byte("#define FROM 2\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "after/only_after.h"), []byte("#define AFTER 1\n"), 0o644)
	src := filepath.Join(dir, "p.c")
	os.WriteFile(src, []byte("#include <linux/types.h>\n#include <only_after.h>\n#ifndef FROM\n#define FROM 0\n#endif\nint from = FROM + AFTER;\n"), 0o644)
	system := "int from = 0 + 1;" // the system's linux/types.h
	if _, err := os.Stat("/usr/include/linux/types.h"); err != nil {
		system = "int from = 2 + 1;" // none: the -idirafter one
	}
	for _, tc := range []struct {
		args []string
		want string // -E output holds it
	}{
		{[]string{"-isystem", filepath.Join(dir, "sys"), "-idirafter", filepath.Join(dir, "after")}, "int from = 1 + 1;"},
		{[]string{"-idirafter", filepath.Join(dir, "after")}, system},
		{[]string{"-nostdinc", "-idirafter", filepath.Join(dir, "after")}, "int from = 2 + 1;"},
		// -include: read first, so FROM is defined before the source.
		{[]string{"-include", filepath.Join(dir, "sys/linux/types.h"), "-idirafter", filepath.Join(dir, "after")}, "int from = 1 + 1;"},
	} {
		var so, se bytes.Buffer
		if code := run(append(append([]string{"-E", "--no-cache"}, tc.args...), src), &so, &se); code != exitOK || !strings.Contains(so.String(), tc.want) {
			t.Errorf("%q: exit %d, want %q in the output; stderr %s", tc.args, code, tc.want, se.String())
		}
	}
}

// --pin-path takes a directory (runtime's TestPinnedMap pins there).
func TestPinPathFlag(t *testing.T) {
	c, err := parseArgs([]string{"--load", "p.c", "--pin-path", "/sys/fs/bpf/mine"})
	if err != nil || c.pinPath != "/sys/fs/bpf/mine" || c.input != "p.c" {
		t.Fatalf("--pin-path: %q, input %q, %v", c.pinPath, c.input, err)
	}
	if _, err := parseArgs([]string{"--load", "p.c", "--pin-path"}); err == nil {
		t.Error("--pin-path without a directory accepted")
	}
}

// --interval reaches the run's options.
func TestIntervalFlag(t *testing.T) {
	c, err := parseArgs([]string{"--load", "p.c", "--interval", "250ms"})
	if err != nil || c.interval != 250*time.Millisecond {
		t.Fatalf("--interval 250ms: %v, %v", c, err)
	}
}
