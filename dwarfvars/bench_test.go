package dwarfvars

import (
	"os"
	"testing"
)

// BenchmarkResolveAndBind measures opening a small binary, resolving a line
// probe and binding every variable there (the target: < 5 ms).
func BenchmarkResolveAndBind(b *testing.B) {
	t := &testing.T{}
	bin := build(t, target{"gcc", "-O2", true})
	for i := 0; i < b.N; i++ {
		benchOnce(b, bin, "sum_loop:5")
	}
}

// BenchmarkLarge does the same on the binary named by $DWARFVARS_BENCH_BIN
// with the probe $DWARFVARS_BENCH_PROBE.
func BenchmarkLarge(b *testing.B) {
	bin, probe := os.Getenv("DWARFVARS_BENCH_BIN"), os.Getenv("DWARFVARS_BENCH_PROBE")
	if bin == "" || probe == "" {
		b.Skip("set DWARFVARS_BENCH_BIN and DWARFVARS_BENCH_PROBE")
	}
	for i := 0; i < b.N; i++ {
		benchOnce(b, bin, probe)
	}
}

func benchOnce(b *testing.B, bin, probe string) {
	bn, err := Open(bin)
	if err != nil {
		b.Fatal(err)
	}
	defer bn.Close()
	p, err := ParseProbe(probe)
	if err != nil {
		b.Fatal(err)
	}
	sites, err := bn.Resolve(p)
	if err != nil {
		b.Fatal(err)
	}
	for _, s := range sites {
		vs, err := bn.Vars(s)
		if err != nil {
			b.Fatal(err)
		}
		for _, v := range vs {
			if v.Err == nil {
				bn.Bind(s, Expr{Text: v.Name, Var: v.Name})
			}
		}
	}
}
