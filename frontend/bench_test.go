package frontend

import (
	"path/filepath"
	"runtime"
	"testing"
)

// xdpProgram is the corpus program that includes libbpf's headers and the
// big linux/ UAPI headers (linux/bpf.h, bpf_helper_defs.h).
var xdpProgram = filepath.Join("..", "tests", "testdata", "xdp_parse_counts.c")

// BenchmarkParseXDP measures Parse (preprocess, parse, type-check) of
// xdp_parse_counts.c, the compile-time target's program: cold, as the
// bpfcc command does it, and warm, with cc's source cache holding the
// headers from the compilations before, as a test suite does it.
func BenchmarkParseXDP(b *testing.B) {
	b.Run("cold", func(b *testing.B) {
		saved := sourceCache
		sourceCache = nil
		defer func() { sourceCache = saved }()
		benchParse(b)
	})
	b.Run("warm", benchParse)
}

func benchParse(b *testing.B) {
	b.ReportAllocs()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	gcs := ms.NumGC
	for b.Loop() {
		if _, err := Parse(xdpProgram, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(ms.NumGC-gcs)/float64(b.N), "gc/op")
}
