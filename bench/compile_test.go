// Package bench holds compile-time benchmarks of the whole bpfcc pipeline;
// compile_time.sh compares the bpfcc command with clang-19.
package bench

import (
	"path/filepath"
	"runtime"
	"testing"

	"github.com/bpfcc/bpfcc"
)

// xdpProgram includes libbpf's headers and the big linux/ UAPI headers.
var xdpProgram = filepath.Join("..", "tests", "testdata", "xdp_parse_counts.c")

// BenchmarkCompileXDP measures bpfcc.Compile of xdp_parse_counts.c, the
// compile-time target's program, front end to ELF object: without the
// header cache, and with a warm one (the normal case after a file's first
// compile). Tests check the IR after every pass; BPFCC_CHECK=0 times what
// a user's compile runs:
//
//	BPFCC_CHECK=0 go test ./bench -run - -bench CompileXDP
func BenchmarkCompileXDP(b *testing.B) {
	b.Run("nocache", func(b *testing.B) { benchCompile(b, bpfcc.Options{}) })
	b.Run("warm", func(b *testing.B) {
		opts := bpfcc.Options{CacheDir: b.TempDir()}
		if _, err := bpfcc.Compile(xdpProgram, opts); err != nil {
			b.Fatal(err)
		}
		benchCompile(b, opts)
	})
}

func benchCompile(b *testing.B, opts bpfcc.Options) {
	b.ReportAllocs()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	gcs := ms.NumGC
	for b.Loop() {
		if _, err := bpfcc.Compile(xdpProgram, opts); err != nil {
			b.Fatal(err)
		}
	}
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(ms.NumGC-gcs)/float64(b.N), "gc/op")
}

// BenchmarkCompileLoops measures the loop unroller and the value analyses
// it runs after each unroll: 64 sequential small loops in one function,
// and three nested 16-trip loops (compile_time.sh takes either file too).
func BenchmarkCompileLoops(b *testing.B) {
	for _, name := range []string{"loops64", "nested3x16"} {
		path := filepath.Join("testdata", name+".c")
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := bpfcc.Compile(path, bpfcc.Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
