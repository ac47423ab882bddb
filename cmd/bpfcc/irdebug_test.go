package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestIRDebug: -d=ir:after=PASS prints each function after that pass
// only, "all" after every pass, -d=ir:time a line per pass that ran, and
// an unknown pass is a usage error naming the passes.
func TestIRDebug(t *testing.T) {
	src := filepath.Join(t.TempDir(), "p.c")
	text := "static int twice(int x) { return x * 2; }\n" +
		"__attribute__((section(\"socket\"))) int prog(void *ctx) { int s = 0; for (int i = 0; i < 3; i++) s += twice(i); return s; }\n"
	if err := os.WriteFile(src, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "p.o")
	compile := func(args ...string) (int, string) {
		var so, se bytes.Buffer
		code := run(append(args, src, "-o", out), &so, &se)
		return code, se.String()
	}
	code, se := compile("-d=ir:after=inline,unroll")
	if code != exitOK || strings.Count(se, "; after inline\n") != 1 || !strings.Contains(se, "; after unroll\n") || strings.Contains(se, "; after fold\n") {
		t.Errorf("after=inline,unroll: exit %d, stderr:\n%s", code, se)
	}
	if !strings.Contains(se, "func prog(") {
		t.Errorf("after=inline: no function printed:\n%s", se)
	}
	code, se = compile("-d=ir:after=all")
	for _, p := range []string{"inline", "entry", "unroll.values", "legalize", "unreachable2"} {
		if code != exitOK || !strings.Contains(se, "; after "+p+"\n") {
			t.Errorf("after=all: exit %d, no dump after %s", code, p)
		}
	}
	code, se = compile("-d=ir:after=isel,regalloc")
	if code != exitOK || !strings.Contains(se, "; after isel\nmir prog:") || !strings.Contains(se, "; after regalloc\nmir prog:") || !strings.Contains(se, "  v11 = r1\n") {
		t.Errorf("after=isel,regalloc: exit %d, stderr:\n%s", code, se)
	}
	code, se = compile("-O0", "-d=ir:time")
	if code != exitOK || !strings.Contains(se, " legalize ") || !strings.Contains(se, " regalloc ") || strings.Contains(se, " fold ") || !strings.Contains(se, "total") {
		t.Errorf("-O0 -d=ir:time: exit %d, stderr:\n%s", code, se)
	}
	code, se = compile("-d=ir:after=nosuch")
	if code != exitUsage || !strings.Contains(se, `no pass "nosuch"`) || !strings.Contains(se, "unroll.values") {
		t.Errorf("unknown pass: exit %d, stderr:\n%s", code, se)
	}
}
