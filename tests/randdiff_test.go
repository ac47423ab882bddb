package tests

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cilium/ebpf"

	"github.com/bpfcc/bpfcc"
	"github.com/bpfcc/bpfcc/tests/internal/randgen"
)

var (
	randSeed  = flag.Int64("randdiff.seed", 1, "first seed of TestRandomDifferential")
	randN     = flag.Int("randdiff.n", 120, "number of programs TestRandomDifferential generates")
	randDump  = flag.String("randdiff.dump", "", "directory to write every generated program to (seed.c)")
	randAvoid = flag.String("randdiff.avoid", "", "comma-separated features to leave out, to look past a known bug: enumu (enums with no negative enumerator), bfdiv (/= and %= on bit-fields)")
)

func randOptions(t *testing.T) randgen.Options {
	var o randgen.Options
	for _, f := range strings.Split(*randAvoid, ",") {
		switch f {
		case "":
		case "enumu":
			o.NoUnsignedEnum = true
		case "bfdiv":
			o.NoBitFieldDivAssign = true
		default:
			t.Fatalf("-randdiff.avoid: unknown feature %q", f)
		}
	}
	return o
}

// randVariant is one bpfcc configuration a random program is compiled in.
type randVariant struct {
	CPU, Opt int
}

func (v randVariant) String() string { return fmt.Sprintf("bpfcc -mcpu=v%d -O%d", v.CPU, v.Opt) }

// randVariants are the configurations of program i: -mcpu=v3 -O2 always,
// plus one of v1, v4, -O0 and v2 -O1 in turn.
func randVariants(i int) []randVariant {
	extra := []randVariant{{1, 2}, {4, 2}, {3, 0}, {2, 1}}
	return []randVariant{{3, 2}, extra[i%len(extra)]}
}

type randStats struct {
	generated, compared, mismatches, bpfccReject, clangReject, bpfccCompile atomic.Int64
}

// TestRandomDifferential generates random programs (tests/internal/randgen),
// compiles each with clang-19 and bpfcc, runs both once on the same packet
// and compares every value the programs store in their output map, and both
// with the values C semantics give (the generator's model).
//
//	go test ./tests -run RandomDifferential -randdiff.seed=1000 -randdiff.n=500
func TestRandomDifferential(t *testing.T) {
	clang := requireClang(t)
	requireKernel(t)
	var st randStats
	opts := randOptions(t)
	t.Run("group", func(t *testing.T) {
		for i := range *randN {
			seed := *randSeed + int64(i)
			t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) {
				t.Parallel()
				randOne(t, clang, seed, opts, randVariants(i), &st)
			})
		}
	})
	t.Logf("random programs: %d generated, %d compared; %d mismatching, %d rejected by the verifier for bpfcc only, %d rejected by bpfcc's compiler, %d rejected for clang (skipped)",
		st.generated.Load(), st.compared.Load(), st.mismatches.Load(), st.bpfccReject.Load(), st.bpfccCompile.Load(), st.clangReject.Load())
}

func randOne(t *testing.T, clang string, seed int64, opts randgen.Options, variants []randVariant, st *randStats) {
	p := randgen.Generate(seed, opts)
	st.generated.Add(1)
	src := p.Source()
	if *randDump != "" {
		if err := os.WriteFile(filepath.Join(*randDump, fmt.Sprintf("%d.c", seed)), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fail := func(format string, args ...any) {
		t.Helper()
		t.Errorf("seed %d (rerun: -run 'RandomDifferential/group/seed=%d$' -randdiff.seed=%d -randdiff.n=1): %s\npacket %x\n%s",
			seed, seed, seed, fmt.Sprintf(format, args...), p.Packet, numbered(src))
	}
	want, err := p.Expected()
	if err != nil {
		t.Fatalf("seed %d: the generator's model: %v", seed, err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, fmt.Sprintf("rand%d.c", seed))
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cpu := 3
	if p.SignedDiv {
		cpu = 4 // clang rejects signed division below v4
	}
	cobj, err := randClang(clang, path, cpu)
	if err != nil {
		st.clangReject.Add(1)
		t.Logf("seed %d: clang: %v", seed, err)
		return
	}
	cspec, err := parseObject(cobj)
	if err != nil {
		t.Fatal(err)
	}
	cvals, err := randRun(cspec, p.Packet, len(want))
	if err != nil {
		st.clangReject.Add(1)
		t.Logf("seed %d: clang's object: %v", seed, err)
		return
	}
	if d := randDiff(cvals, want, "clang", "model"); d != "" {
		// Either the model or clang is wrong: report it, but it says
		// nothing about bpfcc.
		fail("clang-19 -mcpu=v%d disagrees with the generator's model:\n%s", cpu, d)
	}
	st.compared.Add(1)
	bad := false
	for _, v := range variants {
		opts := bpfcc.Options{Source: []byte(src), CPU: v.CPU, OptLevel: bpfcc.Opt(v.Opt)}
		res, err := bpfcc.Compile(path, opts)
		if err != nil {
			st.bpfccCompile.Add(1)
			fail("%v: %v", v, err)
			bad = true
			continue
		}
		bvals, err := randRun(res.Spec, p.Packet, len(want))
		if err != nil {
			st.bpfccReject.Add(1)
			fail("%v: clang's object loads and runs, bpfcc's does not: %v", v, err)
			bad = true
			continue
		}
		if d := randDiff(bvals, cvals, "bpfcc", "clang"); d != "" {
			fail("%v differs from clang-19 -mcpu=v%d:\n%s(model: %s)", v, cpu, d, modelNote(bvals, cvals, want))
			bad = true
		}
	}
	if bad {
		st.mismatches.Add(1)
	}
}

func numbered(src string) string {
	var b strings.Builder
	for i, l := range strings.Split(strings.TrimRight(src, "\n"), "\n") {
		fmt.Fprintf(&b, "%4d  %s\n", i+1, l)
	}
	return b.String()
}

func modelNote(b, c, want []uint64) string {
	switch {
	case randDiff(c, want, "", "") == "":
		return "agrees with clang"
	case randDiff(b, want, "", "") == "":
		return "agrees with bpfcc"
	}
	return "agrees with neither"
}

func randDiff(a, b []uint64, an, bn string) string {
	var s strings.Builder
	for k := range min(len(a), len(b)) {
		if a[k] != b[k] {
			fmt.Fprintf(&s, "  out[%d]: %s %#x (%d), %s %#x (%d)\n", k, an, a[k], int64(a[k]), bn, b[k], int64(b[k]))
		}
	}
	if len(a) != len(b) {
		fmt.Fprintf(&s, "  %d values, %d\n", len(a), len(b))
	}
	return s.String()
}

func randClang(clang, path string, cpu int) ([]byte, error) {
	out := strings.TrimSuffix(path, ".c") + ".clang.o"
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, clang, "-target", "bpf", "-O2", "-g", fmt.Sprintf("-mcpu=v%d", cpu), "-w",
		"-I/usr/include/x86_64-linux-gnu", "-D__TARGET_ARCH_x86", "-c", path, "-o", out)
	if msg, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("%v\n%s", err, msg)
	}
	return os.ReadFile(out)
}

// randRun loads spec, runs its socket program once on pkt and reads the
// first n values of the map "out".
func randRun(spec *ebpf.CollectionSpec, pkt []byte, n int) ([]uint64, error) {
	coll, err := loadCollection(spec)
	if err != nil {
		return nil, err
	}
	defer coll.Close()
	prog := coll.Programs["prog"]
	m := coll.Maps["out"]
	if prog == nil || m == nil {
		return nil, errors.New("object lacks program prog or map out")
	}
	opts := &ebpf.RunOptions{Data: bytes.Clone(pkt)}
	ret, err := prog.Run(opts)
	if err != nil {
		return nil, fmt.Errorf("run: %w", err)
	}
	if ret != 0 {
		return nil, fmt.Errorf("run returned %d", ret)
	}
	vals := make([]uint64, n)
	for k := range n {
		var v []byte
		if err := m.Lookup(uint32(k), &v); err != nil {
			return nil, fmt.Errorf("out[%d]: %w", k, err)
		}
		vals[k] = binary.LittleEndian.Uint64(v)
	}
	return vals, nil
}

var (
	randFile   = flag.String("randdiff.file", "", "C file for TestRandomDifferentialFile (a program written like randgen's)")
	randPacket = flag.String("randdiff.packet", "", "hex packet for -randdiff.file (default: 78 bytes of 0x11)")
	randCPU    = flag.Int("randdiff.cpu", 0, "clang's -mcpu for -randdiff.file (default 4)")
)

// TestRandomDifferentialFile runs one hand-written or reduced program the way
// TestRandomDifferential runs generated ones and prints every value of its
// map "out", for reducing mismatches:
//
//	go test ./tests -run RandomDifferentialFile -randdiff.file=/tmp/x.c -v
func TestRandomDifferentialFile(t *testing.T) {
	if *randFile == "" {
		t.Skip("no -randdiff.file")
	}
	clang := requireClang(t)
	requireKernel(t)
	pkt := bytes.Repeat([]byte{0x11}, 78)
	if *randPacket != "" {
		var err error
		if pkt, err = hex.DecodeString(*randPacket); err != nil {
			t.Fatal(err)
		}
	}
	src, err := os.ReadFile(*randFile)
	if err != nil {
		t.Fatal(err)
	}
	cpu := *randCPU
	if cpu == 0 {
		cpu = 4
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "x.c")
	if err := os.WriteFile(path, src, 0o644); err != nil {
		t.Fatal(err)
	}
	cobj, err := randClang(clang, path, cpu)
	if err != nil {
		t.Fatal(err)
	}
	cspec, err := parseObject(cobj)
	if err != nil {
		t.Fatal(err)
	}
	n := int(cspec.Maps["out"].MaxEntries)
	cvals, err := randRun(cspec, pkt, n)
	if err != nil {
		t.Fatalf("clang: %v", err)
	}
	t.Logf("clang-19 -mcpu=v%d: %#x", cpu, cvals)
	for _, v := range []randVariant{{3, 2}, {1, 2}, {4, 2}, {3, 0}, {2, 1}} {
		res, err := bpfcc.Compile(path, bpfcc.Options{Source: src, CPU: v.CPU, OptLevel: bpfcc.Opt(v.Opt)})
		if err != nil {
			t.Errorf("%v: %v", v, err)
			continue
		}
		bvals, err := randRun(res.Spec, pkt, n)
		if err != nil {
			t.Errorf("%v: %v", v, err)
			continue
		}
		if d := randDiff(bvals, cvals, "bpfcc", "clang"); d != "" {
			t.Errorf("%v: %#x\n%s", v, bvals, d)
		}
	}
}
