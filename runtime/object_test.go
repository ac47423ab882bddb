package runtime

import (
	"bytes"
	"errors"
	"math/rand"
	"os"
	"strings"
	"testing"
	"time"
)

// TestVerifierRejectionObject loads a clang-built object with real BTF line
// info: the report names the C line the verifier refused.
func TestVerifierRejectionObject(t *testing.T) {
	needKernel(t)
	bin := buildTarget(t)
	f, err := os.Open("testdata/reject.bpf.o")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	spec, err := LoadSpec(f)
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = runSpec(t, spec, Options{Probe: bin + ":work", Duration: time.Millisecond, SourcePath: "testdata/reject.bpf.c"})
	var r *VerifierReport
	if !errors.As(err, &r) {
		t.Fatalf("err = %v, want a *VerifierReport", err)
	}
	if r.Program != "bad" || r.Line != 20 || !strings.HasSuffix(r.File, "reject.bpf.c") || strings.TrimSpace(r.SourceLine) != "return *v;" || r.Insn != 7 {
		t.Errorf("report = %+v", r)
	}
	if !strings.Contains(r.Reason, "invalid mem access 'map_value_or_null'") {
		t.Errorf("reason = %q", r.Reason)
	}
}

// TestDamagedObject feeds truncated and corrupted copies of an object to
// LoadSpec and Run: they must fail with errors, never panic.
func TestDamagedObject(t *testing.T) {
	good, err := os.ReadFile("testdata/reject.bpf.o")
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 300; i++ {
		b := bytes.Clone(good)
		switch i % 3 {
		case 0:
			b = b[:rng.Intn(len(b))]
		default:
			for j := 0; j < 1+rng.Intn(8); j++ {
				b[rng.Intn(len(b))] = byte(rng.Intn(256))
			}
		}
		spec, err := LoadSpec(bytes.NewReader(b))
		if err != nil {
			if !errors.Is(err, ErrLoad) {
				t.Fatalf("LoadSpec error does not wrap ErrLoad: %v", err)
			}
			continue
		}
		if os.Geteuid() == 0 && i%10 == 0 {
			// Whatever parses must not panic in Run either (a function
			// the binary has: its symbol is checked before loading).
			runSpec(t, spec, Options{Probe: buildTarget(t) + ":work", Duration: time.Millisecond})
		}
	}
}
