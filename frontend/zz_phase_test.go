package frontend

import (
	"io"
	"os"
	"testing"

	"modernc.org/cc/v4"
)

func zzSources(b *testing.B) (*cc.Config, []cc.Source) {
	src, _ := os.ReadFile(xdpProgram)
	cfg, _ := newConfig(Options{})
	return cfg, []cc.Source{
		{Name: "<predefined>", Value: predefined(Options{})},
		{Name: "<builtin>", Value: cc.Builtin},
		{Name: xdpProgram, Value: rewriteNamedVariadics(src)},
	}
}

func BenchmarkZZPreprocess(b *testing.B) {
	for b.Loop() {
		cfg, s := zzSources(b)
		if err := cc.Preprocess(cfg, s, io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}
func BenchmarkZZParse(b *testing.B) {
	for b.Loop() {
		cfg, s := zzSources(b)
		if _, err := cc.Parse(cfg, s); err != nil {
			b.Fatal(err)
		}
	}
}
func BenchmarkZZTranslate(b *testing.B) {
	for b.Loop() {
		cfg, s := zzSources(b)
		if _, err := cc.Translate(cfg, s); err != nil {
			b.Fatal(err)
		}
	}
}
func BenchmarkZZRewrite(b *testing.B) {
	var bufs [][]byte
	for _, n := range []string{"/usr/include/linux/bpf.h", "/usr/include/bpf/bpf_helper_defs.h", "/usr/include/bpf/bpf_helpers.h", "/usr/include/linux/tcp.h"} {
		x, _ := os.ReadFile(n)
		bufs = append(bufs, x)
	}
	for b.Loop() {
		for _, x := range bufs {
			rewriteNamedVariadics(x)
		}
	}
}
