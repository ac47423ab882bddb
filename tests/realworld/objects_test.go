package realworld

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bpfcc/bpfcc/tests/internal/objsums"
)

var updateObjects = flag.Bool("update-objects", false, "rewrite objects.sha256 from the objects bpfcc writes now (review the diff: a refactoring must leave it unchanged)")

// objectSums is the manifest of bpfcc's objects for the suite. Its first
// header line names the kernel BTF the suite's vmlinux.h came from: on
// another kernel the objects differ, and the test skips.
const objectSums = "objects.sha256"

// TestRealWorldObjects holds every object bpfcc writes for the suite to
// objects.sha256: a change meant to keep the output (a refactoring) must
// leave all of them byte-identical; one meant to change them rewrites the
// manifest with -update-objects.
func TestRealWorldObjects(t *testing.T) {
	s := compiledSuite(t)
	btf := "kernel BTF " + filepath.Base(filepath.Dir(s.tree.Inc15))
	var sums objsums.Sums
	for _, r := range s.results {
		if !r.Bpfcc.OK {
			continue
		}
		b, err := os.ReadFile(r.Bpfcc.Object)
		if err != nil {
			t.Fatal(err)
		}
		sums.Add(r.ID, b)
	}
	if *updateObjects && *only == "" {
		if err := sums.Write(objectSums, btf, "sha256 (first 16 bytes) of each object bpfcc writes for the suite;",
			"go test ./tests/realworld -run TestRealWorldObjects -args -update-objects rewrites it"); err != nil {
			t.Fatal(err)
		}
		return
	}
	m, err := objsums.Read(objectSums)
	if os.IsNotExist(err) {
		t.Skipf("%s is missing: objects are not compared (-update-objects writes it)", objectSums)
	}
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Header) == 0 || m.Header[0] != btf {
		t.Skipf("%s was written with another kernel's BTF (%q, this kernel: %q): objects are not compared", objectSums, strings.Join(m.Header[:min(1, len(m.Header))], ""), btf)
	}
	// Files of the manifest not compiled now are TestRealWorldCompile's
	// business (bpfcc fails, or clang does and bpfcc is not run).
	if d := m.Compare(&sums, false); len(d) > 0 {
		t.Errorf("%d objects differ from %s (-update-objects rewrites it if the change is meant):\n%s", len(d), objectSums, strings.Join(d, "\n"))
	}
}
