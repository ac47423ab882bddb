package tests

import (
	"os"
	"path/filepath"
	"testing"
)

// TestVerifierWalksLikelyArmFirst loads programs whose verification cost
// depends on which arm of a branch the verifier walks first, compiled by
// bpfcc and by clang-19, and holds bpfcc's verified instructions to at most
// 1.5x clang's: path_walk_order.c, an unrolled walk with a pointer equality
// (with the equal arm as the fall-through, bpfcc's v1 object took 40,896
// against clang's 2,603), and clamp_order.c, a clamp before a loop nest
// (with the constant first, bpfcc's v3 object took 68,880 against clang's
// 34,354; clang's own v3 object is refused, so both are held to clang's v1).
// The counts are the verifier's, deterministic for a kernel: no timing.
func TestVerifierWalksLikelyArmFirst(t *testing.T) {
	requireKernel(t)
	clang := requireClang(t)
	for _, tc := range []struct {
		file  string
		pairs [][2]int // bpfcc's -mcpu, clang's
	}{
		{"path_walk_order.c", [][2]int{{1, 1}, {3, 3}}},
		{"clamp_order.c", [][2]int{{1, 1}, {3, 1}}},
	} {
		path := filepath.Join("testdata", tc.file)
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, pair := range tc.pairs {
			count := func(cpu int, withClang bool) uint64 {
				p, err := parseProgram(path, src)
				if err != nil {
					t.Fatal(err)
				}
				p.CPU = cpu
				var n map[string]uint64
				if withClang {
					obj, err := compileClang(clang, p, t.TempDir())
					if err != nil {
						t.Fatal(err)
					}
					spec, err := parseObject(obj)
					if err != nil {
						t.Fatal(err)
					}
					if n, err = verified(spec); err != nil {
						t.Fatalf("%s v%d: clang's object: %v", tc.file, cpu, err)
					}
				} else {
					res, err := compileBPFCC(p)
					if err != nil {
						t.Fatal(err)
					}
					if n, err = verified(res.Spec); err != nil {
						t.Fatalf("%s v%d: bpfcc's object: %v", tc.file, cpu, err)
					}
				}
				return n[p.Name]
			}
			a, b := count(pair[0], false), count(pair[1], true)
			t.Logf("%s: bpfcc -mcpu=v%d %d, clang -mcpu=v%d %d verified instructions", tc.file, pair[0], a, pair[1], b)
			if a == 0 || b == 0 || float64(a) > 1.5*float64(b) {
				t.Errorf("%s: bpfcc's v%d object took %d verified instructions, clang's v%d %d (over 1.5x)", tc.file, pair[0], a, pair[1], b)
			}
		}
	}
}
