package tests

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cilium/ebpf"
	"github.com/cilium/ebpf/rlimit"

	"github.com/bpfcc/bpfcc"
	"github.com/bpfcc/bpfcc/tests/internal/progrun"
)

// inCI reports whether the tests run under CI, where a skip is a failure.
func inCI() bool { return os.Getenv("CI") == "true" }

// skipOrFail skips t with a printed reason, or fails it under CI=true.
func skipOrFail(t testing.TB, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if inCI() {
		t.Fatalf("CI=true, so this is a failure and not a skip: %s", msg)
	}
	t.Skip("skipped: " + msg)
}

var memlockOnce sync.Once

// requireKernel skips (or fails, in CI) unless bpf() can load programs here.
func requireKernel(t testing.TB) {
	t.Helper()
	if runtime.GOOS != "linux" {
		skipOrFail(t, "needs Linux, this is %s", runtime.GOOS)
	}
	if os.Geteuid() != 0 {
		skipOrFail(t, "needs root to load BPF programs (euid %d)", os.Geteuid())
	}
	memlockOnce.Do(func() { _ = rlimit.RemoveMemlock() })
}

// clangPath is the clang the corpus is validated with, or "" when missing.
var clangPath = sync.OnceValue(func() string {
	for _, name := range []string{"clang-19", "/usr/bin/clang-19", "/usr/lib/llvm-19/bin/clang"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
})

func requireClang(t testing.TB) string {
	t.Helper()
	p := clangPath()
	if p == "" {
		skipOrFail(t, "clang-19 not installed (apt-get install clang-19)")
	}
	return p
}

// clangArgs are the flags that make clang see what bpfcc sees by default:
// the x86-64 multiarch include directory and __TARGET_ARCH_x86, at -mcpu=v3.
func clangArgs(p *program, src, out string) []string {
	cpu := 3
	if p.CPU != 0 {
		cpu = p.CPU
	}
	if p.ClangCPU != 0 {
		cpu = p.ClangCPU
	}
	args := []string{"-target", "bpf", "-O2", "-g", fmt.Sprintf("-mcpu=v%d", cpu), "-Wall", "-Werror",
		"-I/usr/include/x86_64-linux-gnu", "-D__TARGET_ARCH_x86"}
	for _, f := range p.CFlags {
		if dir, ok := strings.CutPrefix(f, "-I"); ok && !filepath.IsAbs(dir) {
			f = "-I" + filepath.Join(filepath.Dir(p.Path), dir)
		}
		args = append(args, f)
	}
	return append(args, "-c", src, "-o", out)
}

// compileClang compiles p with clang-19 and returns the object.
func compileClang(clang string, p *program, dir string) ([]byte, error) {
	out := filepath.Join(dir, p.Name+".clang.o")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, clang, clangArgs(p, p.Path, out)...)
	msg, err := cmd.CombinedOutput()
	switch {
	case p.ClangRejects != "" && err == nil:
		return nil, fmt.Errorf("clang-19 %s: compiled, but the program says CLANG-REJECTS: %s", p.Path, p.ClangRejects)
	case p.ClangRejects != "" && !strings.Contains(string(msg), p.ClangRejects):
		return nil, fmt.Errorf("clang-19 %s: failed without %q:\n%s", p.Path, p.ClangRejects, msg)
	case p.ClangRejects != "":
		return nil, errClangRejects
	case err != nil:
		return nil, fmt.Errorf("clang-19 %s: %v\n%s", p.Path, err, msg)
	}
	return os.ReadFile(out)
}

// errClangRejects is compileClang's answer for a program that clang
// rejects as its CLANG-REJECTS line says: C bpfcc compiles and clang does
// not, so there is nothing to compare.
var errClangRejects = errors.New("clang rejects this program, as expected")

// bpfccOptions maps a program's CFLAGS onto bpfcc.Options.
func bpfccOptions(p *program) bpfcc.Options {
	opts := bpfcc.Options{CPU: p.CPU}
	for _, f := range p.CFlags {
		switch {
		case strings.HasPrefix(f, "-D"):
			opts.Defines = append(opts.Defines, f[2:])
		case strings.HasPrefix(f, "-U"):
			opts.Undefines = append(opts.Undefines, f[2:])
		case strings.HasPrefix(f, "-I"):
			dir := f[2:]
			if !filepath.IsAbs(dir) {
				dir = filepath.Join(filepath.Dir(p.Path), dir)
			}
			opts.IncludeDirs = append(opts.IncludeDirs, dir)
		}
	}
	return opts
}

// compileBPFCC compiles p with bpfcc and checks the result is usable.
func compileBPFCC(p *program) (*bpfcc.Result, error) {
	return compileWith(p, bpfccOptions(p))
}

// compileWith is compileBPFCC with options that bpfccOptions(p) gave and
// the caller extended.
func compileWith(p *program, opts bpfcc.Options) (*bpfcc.Result, error) {
	res, err := bpfcc.Compile(p.Path, opts)
	if err != nil {
		return nil, fmt.Errorf("bpfcc.Compile(%s): %w", p.Path, err)
	}
	if res == nil || len(res.Object) == 0 || res.Spec == nil {
		return nil, fmt.Errorf("bpfcc.Compile(%s): returned no object or spec", p.Path)
	}
	return res, nil
}

// parseObject reads an ELF object into a fresh CollectionSpec.
func parseObject(obj []byte) (*ebpf.CollectionSpec, error) {
	spec, err := ebpf.LoadCollectionSpecFromReader(bytes.NewReader(obj))
	if err != nil {
		return nil, fmt.Errorf("parse object: %w", err)
	}
	return spec, nil
}

// loadCollection loads spec into the kernel, with the verifier log on failure.
func loadCollection(spec *ebpf.CollectionSpec) (*ebpf.Collection, error) {
	coll, err := ebpf.NewCollectionWithOptions(spec, ebpf.CollectionOptions{})
	if err != nil {
		var ve *ebpf.VerifierError
		if errors.As(err, &ve) {
			return nil, fmt.Errorf("load: %s", lastLines(fmt.Sprintf("%+v", ve), 60))
		}
		return nil, fmt.Errorf("load: %w", err)
	}
	return coll, nil
}

var runKindType = map[runKind]ebpf.ProgramType{
	runXDP:     ebpf.XDP,
	runSocket:  ebpf.SocketFilter,
	runTC:      ebpf.SchedCLS,
	runSyscall: ebpf.Syscall,
}

// entryProgram picks the program a RUN directive names.
func entryProgram(p *program, coll *ebpf.Collection) (*ebpf.Program, string, error) {
	if p.Prog != "" {
		prog := coll.Programs[p.Prog]
		if prog == nil {
			return nil, "", fmt.Errorf("no program %q in the object", p.Prog)
		}
		return prog, p.Prog, nil
	}
	want := runKindType[p.Run]
	var names []string
	for name, prog := range coll.Programs {
		if prog.Type() == want {
			names = append(names, name)
		}
	}
	if len(names) != 1 {
		sort.Strings(names)
		return nil, "", fmt.Errorf("want exactly one %s program, found %v (use RUN: %s prog=NAME)", want, names, p.Run)
	}
	return coll.Programs[names[0]], names[0], nil
}

// runProgram loads spec, runs every case of p in order against the same
// collection and returns one observation per case.
func runProgram(p *program, spec *ebpf.CollectionSpec) ([]progrun.Observation, error) {
	coll, err := loadCollection(spec)
	if err != nil {
		return nil, err
	}
	defer coll.Close()
	if p.Run == runLoadOnly {
		if len(coll.Programs) == 0 {
			return nil, errors.New("object has no programs")
		}
		return nil, nil
	}
	prog, _, err := entryProgram(p, coll)
	if err != nil {
		return nil, err
	}
	var obs []progrun.Observation
	for _, c := range p.Cases {
		pkt, err := progrun.BuildPacket(c.Packet)
		if err != nil {
			return nil, err
		}
		in := progrun.Input{Repeat: c.Repeat}
		if p.Run != runSyscall {
			in.Data = pkt
		}
		o, err := progrun.Run(prog, in)
		if err != nil {
			return nil, fmt.Errorf("line %d: PACKET %s: %w", c.Line, c.Packet, err)
		}
		o.In = pkt
		if err := progrun.Observe(&o, coll, spec); err != nil {
			return nil, err
		}
		obs = append(obs, o)
	}
	return obs, nil
}

// checkObservations compares what runs observed with p's EXPECT lines.
func checkObservations(p *program, spec *ebpf.CollectionSpec, obs []progrun.Observation) []error {
	var errs []error
	if len(obs) != len(p.Cases) {
		return []error{fmt.Errorf("%d runs observed, %d expected", len(obs), len(p.Cases))}
	}
	for i, c := range p.Cases {
		o := obs[i]
		at := func(line int) string { return fmt.Sprintf("%s:%d", p.Path, line) }
		if c.Retval != nil && o.Retval != *c.Retval {
			hint := ""
			if *c.Retval == 0 && o.Retval < 1000 {
				hint = fmt.Sprintf(" (check %d failed)", o.Retval)
			}
			errs = append(errs, fmt.Errorf("%s: PACKET %s: retval %d, want %d%s", at(c.Line), c.Packet, int32(o.Retval), int32(*c.Retval), hint))
		}
		if c.OutLen != nil && len(o.Out) != *c.OutLen {
			errs = append(errs, fmt.Errorf("%s: output packet is %d bytes, want %d", at(c.Line), len(o.Out), *c.OutLen))
		}
		if c.Unchanged && !bytes.Equal(o.In, o.Out) {
			errs = append(errs, fmt.Errorf("%s: packet changed:\n in: %x\nout: %x", at(c.Line), o.In, o.Out))
		}
		for _, pb := range c.OutBytes {
			end := pb.Offset + len(pb.Want)
			if end > len(o.Out) {
				errs = append(errs, fmt.Errorf("%s: output packet is %d bytes, too short for bytes %d..%d", at(pb.Line), len(o.Out), pb.Offset, end))
				continue
			}
			if got := o.Out[pb.Offset:end]; !bytes.Equal(got, pb.Want) {
				errs = append(errs, fmt.Errorf("%s: output bytes at %d are %x, want %x", at(pb.Line), pb.Offset, got, pb.Want))
			}
		}
		for _, me := range c.Maps {
			if err := checkMap(spec, o, me); err != nil {
				errs = append(errs, fmt.Errorf("%s: EXPECT-MAP %s: %v", at(me.Line), me.Map, err))
			}
		}
		for _, ve := range c.Vars {
			if err := checkVar(o, ve); err != nil {
				errs = append(errs, fmt.Errorf("%s: EXPECT-VAR %s: %v", at(ve.Line), ve.Name, err))
			}
		}
	}
	return errs
}

func checkMap(spec *ebpf.CollectionSpec, o progrun.Observation, me mapExpect) error {
	ms := spec.Maps[me.Map]
	if ms == nil {
		return fmt.Errorf("no such map in the object")
	}
	d, ok := o.Maps[me.Map]
	if !ok {
		return fmt.Errorf("map %s (%v) was not dumped", me.Map, ms.Type)
	}
	key, err := encodeValue(me.Key, int(ms.KeySize))
	if err != nil {
		return fmt.Errorf("key: %v", err)
	}
	vals, present := d.Entries[hex.EncodeToString(key)]
	if me.Absent {
		if present {
			return fmt.Errorf("key %s present with value %x, want absent", me.Key, vals)
		}
		return nil
	}
	if !present {
		return fmt.Errorf("key %s absent", me.Key)
	}
	if d.PerCPU {
		if ms.ValueSize > 8 {
			return fmt.Errorf("per-CPU values wider than 8 bytes cannot be summed")
		}
		want, err := parseValue(me.Value)
		if err != nil {
			return err
		}
		var sum uint64
		for _, v := range vals {
			sum += decodeLE(v)
		}
		if sum != uint64(want) {
			return fmt.Errorf("key %s: per-CPU sum %d, want %d", me.Key, sum, want)
		}
		return nil
	}
	want, err := encodeValue(me.Value, int(ms.ValueSize))
	if err != nil {
		return fmt.Errorf("value: %v", err)
	}
	if !bytes.Equal(vals[0], want) {
		return fmt.Errorf("key %s: value %x (%d), want %x (%s)", me.Key, vals[0], decodeLE(vals[0][:min(8, len(vals[0]))]), want, me.Value)
	}
	return nil
}

func checkVar(o progrun.Observation, ve varExpect) error {
	got, ok := o.Vars[ve.Name]
	if !ok {
		var names []string
		for n := range o.Vars {
			names = append(names, n)
		}
		sort.Strings(names)
		return fmt.Errorf("no such variable (have %v)", names)
	}
	want, err := encodeValue(ve.Value, len(got))
	if err != nil {
		return err
	}
	if !bytes.Equal(got, want) {
		return fmt.Errorf("value %x, want %x (%s)", got, want, ve.Value)
	}
	return nil
}

// reportErrors fails t with every error.
func reportErrors(t testing.TB, errs []error) {
	t.Helper()
	for _, err := range errs {
		t.Error(err)
	}
}
