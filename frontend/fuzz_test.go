package frontend

import (
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// addCorpusSeeds adds the golden corpus programs (tests/testdata/*.c).
func addCorpusSeeds(f *testing.F) {
	paths, err := filepath.Glob(filepath.Join("..", "tests", "testdata", "*.c"))
	if err != nil {
		f.Fatal(err)
	}
	sort.Strings(paths)
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	for _, s := range []string{
		"#define A(x) A(x) x\nA(1)\n",
		"#if 1\n#elif\n#endif\n",
		"#define S(a, args...) f(a, ##args)\nS(1) S(1, 2, 3)\n",
		"#define CAT(a, b) a ## b\nCAT(, )CAT(1, x)\n",
	} {
		f.Add([]byte(s))
	}
}

// hangBound is where a fuzz input counts as a hang: beyond the front end's
// own last-resort watchdog, so a loaded machine never turns a slow input
// into a failure.
var hangBound = TranslateTimeout + time.Minute

// bounded runs fn with a deadline; false means it did not return in time.
func bounded(d time.Duration, fn func()) bool {
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn()
	}()
	select {
	case <-done:
		return true
	case <-time.After(d):
		return false
	}
}

// FuzzPreprocess runs bpfcc -E on arbitrary input: errors are diagnostics
// with a position; nothing panics or hangs.
func FuzzPreprocess(f *testing.F) {
	addCorpusSeeds(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		var err error
		if !bounded(hangBound, func() { err = Preprocess("fuzz.c", Options{Source: src}, io.Discard) }) {
			t.Fatalf("preprocessing did not finish in %v", hangBound)
		}
		checkFrontendError(t, err)
	})
}

// FuzzParse runs the front end (preprocess, parse, type-check) on arbitrary
// input.
func FuzzParse(f *testing.F) {
	addCorpusSeeds(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		var err error
		if !bounded(hangBound, func() { _, err = Parse("fuzz.c", Options{Source: src}) }) {
			t.Fatalf("parsing did not finish in %v", hangBound)
		}
		checkFrontendError(t, err)
	})
}

func checkFrontendError(t *testing.T, err error) {
	t.Helper()
	if err == nil {
		return
	}
	if strings.Contains(err.Error(), "internal compiler error") {
		t.Fatalf("front end failed internally: %v", err)
	}
	for _, bad := range []string{"TODO", "check.go:", "cpp.go:", "cc.go:", "Config.ExpansionLimit"} {
		if strings.Contains(err.Error(), bad) {
			t.Fatalf("diagnostics leak cc internals (%q): %v", bad, err)
		}
	}
}
