package bpfcc_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/cilium/ebpf"
	"github.com/cilium/ebpf/btf"

	"github.com/bpfcc/bpfcc"
	"github.com/bpfcc/bpfcc/diag"
	"github.com/bpfcc/bpfcc/frontend"
	"github.com/bpfcc/bpfcc/runtime"
)

// fuzzTimeout bounds one compilation inside a fuzz target; longer is a hang.
// It lies beyond the front end's last-resort watchdog, so load on the machine
// never turns a slow compile into a failure.
var fuzzTimeout = frontend.TranslateTimeout + 2*time.Minute

// corpusSources returns the golden corpus programs (tests/testdata/*.c),
// sorted by name.
func corpusSources(tb testing.TB) map[string][]byte {
	tb.Helper()
	paths, err := filepath.Glob(filepath.Join("tests", "testdata", "*.c"))
	if err != nil {
		tb.Fatal(err)
	}
	out := map[string][]byte{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			tb.Fatal(err)
		}
		out[p] = b
	}
	return out
}

func sortedKeys(m map[string][]byte) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// compileOutcome is what one bounded compilation produced.
type compileOutcome struct {
	res *bpfcc.Result
	err error
}

// compileBounded compiles src as fuzz.c; ok is false when it ran longer than
// timeout (the goroutine is then abandoned: the test fails anyway).
func compileBounded(src []byte, timeout time.Duration) (compileOutcome, bool) {
	done := make(chan compileOutcome, 1)
	go func() {
		res, err := bpfcc.Compile("fuzz.c", bpfcc.Options{Source: src})
		done <- compileOutcome{res, err}
	}()
	select {
	case o := <-done:
		return o, true
	case <-time.After(timeout):
		return compileOutcome{}, false
	}
}

// ignored reports whether a failure message matches BPFCC_FUZZ_IGNORE, a
// regular expression naming bugs already reported, so that a long fuzzing
// run (bench/fuzz.sh) goes on to find the next one.
func ignored(msg string) bool {
	pat := os.Getenv("BPFCC_FUZZ_IGNORE")
	if pat == "" {
		return false
	}
	re, err := regexp.Compile(pat)
	return err == nil && re.MatchString(msg)
}

// pointerAtEOF reports whether src, preprocessed, ends in "*" or "^" and
// type qualifiers: modernc.org/cc/v4 v4.34.1 loops forever there
// (parser.go typeQualifierList), so a fuzzing run that names the bug
// "cc-pointer-eof" in BPFCC_FUZZ_IGNORE skips such inputs instead of
// leaking a spinning goroutine per input.
func pointerAtEOF(src []byte) bool {
	var out bytes.Buffer
	if err := frontend.Preprocess("fuzz.c", frontend.Options{Source: src}, &out); err != nil && out.Len() == 0 {
		return false
	}
	return pointerTail.Match(out.Bytes())
}

var pointerTail = regexp.MustCompile(`[*^](?:\s|const|volatile|restrict|__restrict|_Atomic|_Nonnull|_Nullable|__attribute__\s*\(\([^)]*\)\))*$`)

// failUnlessIgnored fails t with msg, or skips when msg is a known bug.
func failUnlessIgnored(t *testing.T, msg string) {
	t.Helper()
	if ignored(msg) {
		t.Skip("known: " + msg)
	}
	t.Fatal(msg)
}

// checkCompileError fails t when err is not an ordinary input error: an
// internal error, or a diagnostic saying the compiler broke.
func checkCompileError(t *testing.T, err error) {
	t.Helper()
	if errors.Is(err, bpfcc.ErrInternal) {
		failUnlessIgnored(t, "internal error: "+err.Error())
	}
	var dl diag.List
	if !errors.As(err, &dl) {
		// Option errors (mcpu) are the only non-diagnostic errors allowed.
		failUnlessIgnored(t, fmt.Sprintf("error is not a diag.List: %T %v", err, err))
	}
	for _, d := range dl {
		if strings.Contains(d.Msg, "internal compiler error") || strings.Contains(d.Msg, "goroutine ") {
			failUnlessIgnored(t, "diagnostic reports a compiler bug: "+d.String())
		}
	}
}

// FuzzCompile runs the whole compile path on arbitrary C: bpfcc.Compile
// returns an object or diagnostics, never panics, fails internally or hangs.
func FuzzCompile(f *testing.F) {
	srcs := corpusSources(f)
	for _, p := range sortedKeys(srcs) {
		f.Add(srcs[p])
	}
	f.Add([]byte("int x;"))
	f.Add([]byte("#include <linux/bpf.h>\n#include <bpf/bpf_helpers.h>\nSEC(\"xdp\") int f(struct xdp_md *c) { return XDP_PASS; }\nchar LICENSE[] SEC(\"license\") = \"GPL\";\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		if ignored("cc-pointer-eof") && pointerAtEOF(src) {
			t.Skip("known: cc hangs on a pointer declarator at end of input")
		}
		o, ok := compileBounded(src, fuzzTimeout)
		if !ok {
			t.Fatalf("compilation did not finish in %v", fuzzTimeout)
		}
		if o.err != nil {
			checkCompileError(t, o.err)
			return
		}
		if o.res == nil || len(o.res.Object) == 0 || o.res.Spec == nil {
			t.Fatalf("no error and no object")
		}
	})
}

// FuzzLoadELF feeds damaged objects to the --load path's reader
// (runtime.LoadSpec) and decodes each map's value type from zero bytes, as
// the printer would: errors are fine, panics are not.
func FuzzLoadELF(f *testing.F) {
	if b, err := os.ReadFile(filepath.Join("runtime", "testdata", "reject.bpf.o")); err == nil {
		f.Add(b)
	}
	srcs := corpusSources(f)
	for _, p := range sortedKeys(srcs) {
		if res, err := bpfcc.Compile(p, bpfcc.Options{}); err == nil {
			f.Add(res.Object)
		}
	}
	f.Add([]byte("\x7fELF"))
	f.Fuzz(func(t *testing.T, obj []byte) {
		spec, err := runtime.LoadSpec(bytes.NewReader(obj))
		if err != nil {
			// LoadSpec turns a panic in cilium/ebpf into "malformed object:
			// PANIC"; that meets bpfcc's contract but is worth a look.
			if strings.Contains(err.Error(), "malformed object: ") {
				if os.Getenv("BPFCC_FUZZ_STRICT") != "" {
					t.Fatalf("reader panicked (recovered by LoadSpec): %v", err)
				}
				t.Logf("reader panicked (recovered by LoadSpec): %v", err)
			}
			return
		}
		for _, name := range sortedMapNames(spec.Maps) {
			ms := spec.Maps[name]
			if ms.Value == nil || ms.ValueSize > 1<<16 {
				continue
			}
			decodeSafely(t, name, ms.Value, make([]byte, ms.ValueSize))
		}
		for _, p := range spec.Programs {
			_ = p.Instructions.String()
		}
	})
}

func sortedMapNames(m map[string]*ebpf.MapSpec) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// decodeSafely runs runtime.Decode as the event and map printers do; it
// recovers its own panics, so one escaping here is a bug.
func decodeSafely(t *testing.T, name string, typ btf.Type, b []byte) {
	t.Helper()
	if _, err := runtime.Decode(typ, b); err != nil && strings.Contains(err.Error(), "runtime error") {
		if os.Getenv("BPFCC_FUZZ_STRICT") != "" {
			t.Fatalf("map %s: Decode panicked (recovered): %v", name, err)
		}
		t.Logf("map %s: Decode panicked (recovered): %v", name, err)
	}
}

func TestPointerAtEOF(t *testing.T) {
	for src, want := range map[string]bool{"int *": true, "int x; ^\n": true, "int * const": true, "#define P *\nint P\n": true, "int *p;": false, "int x = 2 * 3;": false} {
		if got := pointerAtEOF([]byte(src)); got != want {
			t.Errorf("pointerAtEOF(%q) = %v, want %v", src, got, want)
		}
	}
}
