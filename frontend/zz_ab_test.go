package frontend

import (
	"os"
	"testing"
	"syscall"
	"time"

	"modernc.org/cc/v4"
)

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func benchAB(b *testing.B, keep bool) {
	b.ReportAllocs()
	src, _ := os.ReadFile(xdpProgram)
	c0 := cpuTime()
	for b.Loop() {
		cfg, _ := newConfig(Options{})
		cfg.FS = sourceFS{embedded: newSourceFS().embedded, keepComments: keep}
		if _, err := cc.Translate(cfg, []cc.Source{{Name: "<predefined>", Value: predefined(Options{})}, {Name: "<builtin>", Value: cc.Builtin}, {Name: xdpProgram, Value: rewriteNamedVariadics(src)}}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cpuTime()-c0)/float64(b.N)/1e6, "cpu-ms/op")
}
func BenchmarkZZKeep(b *testing.B)  { benchAB(b, true) }
func BenchmarkZZStrip(b *testing.B) { benchAB(b, false) }
