package tests

import (
	"os"
	"path/filepath"
	"testing"
)

// TestVerifierWalksLikelyArmFirst loads path_walk_order.c, an unrolled
// walk whose verification cost depends on which arm of a pointer equality
// the verifier walks first, compiled by bpfcc and by clang-19 at -mcpu=v1
// (clang-19's default) and v3, and holds bpfcc's verified instructions to
// at most 1.5x clang's. (With the equal arm as the fall-through, bpfcc's
// v1 object took 40,896 against clang's 2,603.) The counts are the
// verifier's, deterministic for a kernel: no timing.
func TestVerifierWalksLikelyArmFirst(t *testing.T) {
	requireKernel(t)
	clang := requireClang(t)
	path := filepath.Join("testdata", "path_walk_order.c")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, cpu := range []int{1, 3} {
		p, err := parseProgram(path, src)
		if err != nil {
			t.Fatal(err)
		}
		p.CPU = cpu
		res, err := compileBPFCC(p)
		if err != nil {
			t.Fatal(err)
		}
		ours, err := verified(res.Spec)
		if err != nil {
			t.Fatalf("v%d: bpfcc's object: %v", cpu, err)
		}
		obj, err := compileClang(clang, p, t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		spec, err := parseObject(obj)
		if err != nil {
			t.Fatal(err)
		}
		theirs, err := verified(spec)
		if err != nil {
			t.Fatalf("v%d: clang's object: %v", cpu, err)
		}
		a, b := ours[p.Name], theirs[p.Name]
		t.Logf("-mcpu=v%d: bpfcc %d, clang %d verified instructions", cpu, a, b)
		if a == 0 || b == 0 || float64(a) > 1.5*float64(b) {
			t.Errorf("-mcpu=v%d: bpfcc's object took %d verified instructions, clang's %d (over 1.5x)", cpu, a, b)
		}
	}
}
