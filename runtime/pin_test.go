package runtime

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cilium/ebpf"
)

// A map pinned by name is pinned under the pin path, and found there by
// the next run, which sees what the first counted; a pin path off bpffs
// is refused before loading, with the way out.
func TestPinnedMap(t *testing.T) {
	needKernel(t)
	bin := buildTarget(t)
	pins, err := os.MkdirTemp(defaultPinPath, "bpfcc-test-")
	if err != nil {
		t.Skipf("no BPF file system at %s: %v", defaultPinPath, err)
	}
	defer os.RemoveAll(pins)
	spec := countSpec("uprobe/" + bin + ":work")
	spec.Maps["calls"].Pinning = ebpf.PinByName
	for run := range 2 {
		out, stderr, err := runSpec(t, spec, Options{Command: []string{bin, "100"}, PinPath: pins})
		if err != nil {
			t.Fatalf("run %d: %v\n%s", run, Describe(err), stderr)
		}
		if !strings.Contains(stderr, "map calls is pinned at "+filepath.Join(pins, "calls")) {
			t.Errorf("run %d: no note of the pin: %q", run, stderr)
		}
		// Each run's command counts 100 calls under its own pid: the
		// second run's table also holds the first's row.
		if rows := strings.Count(out, " 100\n"); rows != run+1 {
			t.Errorf("run %d: %d rows of 100 calls, want %d:\n%s", run, rows, run+1, out)
		}
	}
	if _, err := os.Stat(filepath.Join(pins, "calls")); err != nil {
		t.Errorf("no pin after the runs: %v", err)
	}
	_, _, err = runSpec(t, spec, Options{Command: []string{bin, "1"}, PinPath: t.TempDir()})
	if !errors.Is(err, ErrLoad) || !strings.Contains(err.Error(), "not on a BPF file system") {
		t.Errorf("pin path off bpffs: %v", err)
	}
}
