package codegen

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bpfcc/bpfcc/internal/filecheck"
	"github.com/bpfcc/bpfcc/ir"
)

// TestBackEndChecks compiles each testdata/backend/*.ir (IR text, with
// "# cpu: N", "# opt: N" and "# dump: STAGE" lines; default v3, -O2 and
// the listing) and matches the text that stage printed for every
// function against the file's CHECK lines (see package filecheck). Needs
// no root: nothing is loaded.
func TestBackEndChecks(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "backend", "*.ir"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata/backend/*.ir (%v)", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".ir"), func(t *testing.T) {
			b, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			text := string(b)
			m, err := ir.Parse(text)
			if err != nil {
				t.Fatal(err)
			}
			checks, err := filecheck.Parse(text)
			if err != nil {
				t.Fatal(err)
			}
			if len(checks) == 0 {
				t.Fatal("no CHECK lines")
			}
			stage := directiveText(text, "dump", "emit")
			var out strings.Builder
			opts := Options{CPU: directiveInt(t, text, "cpu", 3), OptLevel: directiveInt(t, text, "opt", 2)}
			opts.AfterStage = func(st, fn, s string, _ time.Duration) {
				if st == stage {
					out.WriteString(s)
				}
			}
			if _, err := Generate(m, opts); err != nil {
				t.Fatal(err)
			}
			for _, err := range filecheck.Match(out.String(), checks) {
				t.Errorf("%s:%v", file, err)
			}
			if t.Failed() {
				t.Logf("after %s:\n%s", stage, out.String())
			}
		})
	}
}

func directiveText(text, key, def string) string {
	for _, l := range strings.Split(text, "\n") {
		if v, ok := strings.CutPrefix(l, "# "+key+": "); ok {
			return strings.TrimSpace(v)
		}
	}
	return def
}

func directiveInt(t *testing.T, text, key string, def int) int {
	v := directiveText(text, key, "")
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		t.Fatalf("# %s: %v", key, err)
	}
	return n
}
