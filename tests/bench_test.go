package tests

import (
	"math"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/cilium/ebpf"
	"github.com/cilium/ebpf/asm"
	"github.com/cilium/ebpf/rlimit"

	"github.com/bpfcc/bpfcc"
)

// benchHeaderProgram is the corpus program whose compile time is compared:
// it includes libbpf's bpf_helpers.h, bpf_endian.h and the linux/ headers.
const benchHeaderProgram = "xdp_parse_counts"

// progSize is the number of 8-byte instruction slots of each program.
type progSize map[string]uint64

func sizes(spec *ebpf.CollectionSpec) progSize {
	out := progSize{}
	for name, ps := range spec.Programs {
		out[name] = ps.Instructions.Size() / asm.InstructionSize
	}
	return out
}

// verified loads spec and returns each program's verifier "processed insns".
func verified(spec *ebpf.CollectionSpec) (map[string]uint64, error) {
	coll, err := loadCollection(spec)
	if err != nil {
		return nil, err
	}
	defer coll.Close()
	out := map[string]uint64{}
	for name, prog := range coll.Programs {
		info, err := prog.Info()
		if err != nil {
			return nil, err
		}
		if n, ok := info.VerifiedInstructions(); ok {
			out[name] = uint64(n)
		}
	}
	return out, nil
}

// geomeanRatio is the geometric mean of num[k]/den[k] over keys in both.
func geomeanRatio(num, den map[string]uint64) (float64, int) {
	var sum float64
	n := 0
	keys := make([]string, 0, len(num))
	for k := range num {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		d, ok := den[k]
		if !ok || d == 0 || num[k] == 0 {
			continue
		}
		sum += math.Log(float64(num[k]) / float64(d))
		n++
	}
	if n == 0 {
		return 0, 0
	}
	return math.Exp(sum / float64(n)), n
}

func geomean(m map[string]uint64) float64 {
	ones := map[string]uint64{}
	for k := range m {
		ones[k] = 1
	}
	g, _ := geomeanRatio(m, ones)
	return g
}

// corpusFigures compiles the corpus with one compiler and measures it.
type corpusFigures struct {
	insns    map[string]uint64 // "file/prog" -> instruction slots
	verified map[string]uint64 // "file/prog" -> processed insns
	failed   int               // programs that did not compile or load
}

func measure(b *testing.B, progs []*program, compile func(*program) (*ebpf.CollectionSpec, error)) corpusFigures {
	b.Helper()
	f := corpusFigures{insns: map[string]uint64{}, verified: map[string]uint64{}}
	canLoad := os.Geteuid() == 0
	for _, p := range progs {
		spec, err := compile(p)
		if err != nil {
			b.Logf("%s: left out: %v", p.Path, firstLine(err))
			f.failed++
			continue
		}
		for name, n := range sizes(spec) {
			f.insns[p.Name+"/"+name] = n
		}
		if !canLoad {
			continue
		}
		v, err := verified(spec)
		if err != nil {
			b.Logf("%s: verifier figures left out: %v", p.Path, firstLine(err))
			f.failed++
			continue
		}
		for name, n := range v {
			f.verified[p.Name+"/"+name] = n
		}
	}
	return f
}

func findProgram(b *testing.B, progs []*program, name string) *program {
	for _, p := range progs {
		if p.Name == name {
			return p
		}
	}
	b.Fatalf("corpus has no %s.c", name)
	return nil
}

func clangCompileTime(b *testing.B, clang string, p *program, runs int) time.Duration {
	dir := b.TempDir()
	start := time.Now()
	for range runs {
		if _, err := compileClang(clang, p, dir); err != nil {
			b.Fatal(err)
		}
	}
	return time.Since(start) / time.Duration(runs)
}

// BenchmarkCorpus compares bpfcc with clang-19 -O2 over the corpus:
//
//   - clang: ns/op is clang's compile time of benchHeaderProgram; metrics are
//     clang's instructions and verifier work per program (geometric means);
//   - bpfcc: ns/op is bpfcc's compile time of the same program; metrics are
//     bpfcc's figures and, with clang installed, the ratios
//     insns-ratio (geometric mean of bpfcc/clang instructions per program),
//     verified-ratio (the same for verifier processed insns) and
//     compile-time-ratio (bpfcc/clang wall time). Targets: ≤1.3, ≤1.3, ≤0.3.
//
// Verifier figures need root; without it they are left out.
func BenchmarkCorpus(b *testing.B) {
	progs := loadCorpus(b)
	requireKernelIfRoot()
	hdr := findProgram(b, progs, benchHeaderProgram)
	clang := clangPath()
	var clangFig *corpusFigures
	var clangTime time.Duration
	clangCompile := func(p *program) (*ebpf.CollectionSpec, error) {
		obj, err := compileClang(clang, p, b.TempDir())
		if err != nil {
			return nil, err
		}
		return parseObject(obj)
	}
	prepareClang := func(b *testing.B) {
		if clangFig != nil || clang == "" {
			return
		}
		f := measure(b, progs, clangCompile)
		clangFig = &f
		clangTime = clangCompileTime(b, clang, hdr, 5)
	}

	b.Run("clang", func(b *testing.B) {
		if clang == "" {
			b.Skip("clang-19 not installed")
		}
		prepareClang(b)
		dir := b.TempDir()
		for b.Loop() {
			if _, err := compileClang(clang, hdr, dir); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(geomean(clangFig.insns), "insns/prog")
		if len(clangFig.verified) > 0 {
			b.ReportMetric(geomean(clangFig.verified), "verified/prog")
		}
	})

	b.Run("bpfcc", func(b *testing.B) {
		bf := measure(b, progs, func(p *program) (*ebpf.CollectionSpec, error) {
			res, err := compileBPFCC(p)
			if err != nil {
				return nil, err
			}
			return res.Spec, nil
		})
		opts := bpfccOptions(hdr)
		start := time.Now()
		runs := 0
		for b.Loop() {
			if _, err := bpfcc.Compile(hdr.Path, opts); err != nil {
				b.Fatal(err)
			}
			runs++
		}
		bpfccTime := time.Since(start) / time.Duration(max(runs, 1))
		b.ReportMetric(float64(bf.failed), "failed-progs")
		b.ReportMetric(geomean(bf.insns), "insns/prog")
		if len(bf.verified) > 0 {
			b.ReportMetric(geomean(bf.verified), "verified/prog")
		}
		if clang == "" {
			b.Log("clang-19 not installed: no ratios")
			return
		}
		prepareClang(b)
		if r, n := geomeanRatio(bf.insns, clangFig.insns); n > 0 {
			b.ReportMetric(r, "insns-ratio")
			logWorst(b, "instructions", bf.insns, clangFig.insns, 10)
		}
		if r, n := geomeanRatio(bf.verified, clangFig.verified); n > 0 {
			b.ReportMetric(r, "verified-ratio")
		}
		b.ReportMetric(float64(bpfccTime)/float64(clangTime), "compile-time-ratio")
	})
}

// logWorst logs the n programs with the highest bpfcc/clang ratio, the
// places to look when a ratio is over its target.
func logWorst(b *testing.B, what string, num, den map[string]uint64, n int) {
	type row struct {
		name  string
		a, c  uint64
		ratio float64
	}
	var rows []row
	for k, a := range num {
		if c := den[k]; c > 0 {
			rows = append(rows, row{k, a, c, float64(a) / float64(c)})
		}
	}
	sort.Slice(rows, func(i, j int) bool {
		if rows[i].ratio != rows[j].ratio {
			return rows[i].ratio > rows[j].ratio
		}
		return rows[i].name < rows[j].name
	})
	for _, r := range rows[:min(n, len(rows))] {
		b.Logf("%s %s: bpfcc %d, clang %d (%.2f)", what, r.name, r.a, r.c, r.ratio)
	}
}

// requireKernelIfRoot lifts the memlock limit when the benchmark can load.
func requireKernelIfRoot() {
	if os.Geteuid() == 0 {
		memlockOnce.Do(func() { _ = rlimit.RemoveMemlock() })
	}
}

// firstLine keeps a long error (a verifier log) to its first line.
func firstLine(err error) string {
	s := err.Error()
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " ..."
	}
	return s
}
