package tests

import (
	"testing"
)

// TestKernel loads every bpfcc object with cilium/ebpf and runs the
// runnable ones with BPF_PROG_TEST_RUN, asserting their EXPECT lines.
func TestKernel(t *testing.T) {
	requireKernel(t)
	for _, p := range loadCorpus(t) {
		t.Run(p.Name, func(t *testing.T) {
			res, err := compileBPFCC(p)
			if err != nil {
				t.Fatal(err)
			}
			// Result.Spec must be the object's own spec.
			spec, err := parseObject(res.Object)
			if err != nil {
				t.Fatal(err)
			}
			if len(spec.Programs) != len(res.Spec.Programs) || len(spec.Maps) != len(res.Spec.Maps) {
				t.Errorf("Result.Spec has %d programs and %d maps, the object %d and %d",
					len(res.Spec.Programs), len(res.Spec.Maps), len(spec.Programs), len(spec.Maps))
			}
			obs, err := runProgram(p, res.Spec)
			if p.XFail != "" {
				if err == nil && len(checkObservations(p, res.Spec, obs)) == 0 {
					t.Errorf("%s passes now: remove its BPFCC-XFAIL (%s)", p.Path, p.XFail)
				}
				t.Logf("expected failure: %s", p.XFail)
				return
			}
			if err != nil {
				t.Fatalf("%s: %v", p.Path, err)
			}
			reportErrors(t, checkObservations(p, res.Spec, obs))
		})
	}
}
