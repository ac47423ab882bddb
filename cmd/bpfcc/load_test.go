package main

// End-to-end tests of bpfcc --load: they build the bpfcc binary and the demo
// target (examples/demo/target.c, with gcc), run `bpfcc --load ...` as a
// subprocess against the target and check what it prints, how it exits and
// that it leaves nothing behind in the kernel. They need root (or
// CAP_BPF+CAP_PERFMON) and gcc; without them they skip with the reason,
// except under CI=true, where they fail.

import (
	"bufio"
	"bytes"
	"debug/elf"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

const examplesDir = "../../examples"

// loadEnv is what the --load tests share: the bpfcc binary and the target.
type loadEnv struct {
	bpfcc  string // the bpfcc binary
	target string // examples/demo/target.c built with gcc -g -O2
	dir    string
}

var (
	envOnce sync.Once
	envVal  *loadEnv
	envErr  error
	envSkip string
)

// TestMain removes the shared build directory after the tests.
func TestMain(m *testing.M) {
	code := m.Run()
	if envVal != nil {
		os.RemoveAll(envVal.dir)
	}
	os.Exit(code)
}

// skipOrFail skips the test with reason, or fails it under CI=true, where
// every prerequisite is meant to be there.
func skipOrFail(t *testing.T, reason string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("CI=true but: %s", reason)
	}
	t.Skip(reason)
}

// needLoad returns the shared environment, building it on first use, or
// skips the test when the kernel side cannot be tested here.
func needLoad(t *testing.T) *loadEnv {
	t.Helper()
	if testing.Short() {
		t.Skip("--load end-to-end tests skipped with -short")
	}
	if os.Geteuid() != 0 {
		skipOrFail(t, "--load tests need root (loading BPF programs and uprobes needs CAP_BPF and CAP_PERFMON)")
	}
	envOnce.Do(func() {
		for _, tool := range []string{"go", "gcc"} {
			if _, err := exec.LookPath(tool); err != nil {
				envSkip = fmt.Sprintf("--load tests need %s in $PATH to build bpfcc and the demo target", tool)
				return
			}
		}
		dir, err := os.MkdirTemp("", "bpfcc-load-test")
		if err != nil {
			envErr = err
			return
		}
		e := &loadEnv{bpfcc: filepath.Join(dir, "bpfcc"), target: filepath.Join(dir, "bpfcc-demo"), dir: dir}
		envVal = e
		if out, err := exec.Command("go", "build", "-o", e.bpfcc, ".").CombinedOutput(); err != nil {
			envErr = fmt.Errorf("go build: %v\n%s", err, out)
			return
		}
		src := filepath.Join(examplesDir, "demo", "target.c")
		if out, err := exec.Command("gcc", "-g", "-O2", "-o", e.target, src).CombinedOutput(); err != nil {
			envErr = fmt.Errorf("gcc %s: %v\n%s", src, err, out)
			return
		}
	})
	if envSkip != "" {
		skipOrFail(t, envSkip)
	}
	if envErr != nil {
		t.Fatal(envErr)
	}
	return envVal
}

// result is one finished bpfcc run.
type result struct {
	stdout, stderr string
	code           int
	elapsed        time.Duration
}

func (r result) String() string {
	return fmt.Sprintf("exit %d after %v\nstdout:\n%s\nstderr:\n%s", r.code, r.elapsed.Round(time.Millisecond), r.stdout, r.stderr)
}

// run runs bpfcc with args and waits for it (at most 60 s).
func (e *loadEnv) run(t *testing.T, args ...string) result {
	t.Helper()
	cmd := exec.Command(e.bpfcc, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		<-done
		t.Fatalf("bpfcc %s: still running after 60 s\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), stdout.String(), stderr.String())
	}
	r := result{stdout: stdout.String(), stderr: stderr.String(), elapsed: time.Since(start)}
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		r.code = ee.ExitCode()
	default:
		t.Fatal(err)
	}
	t.Logf("bpfcc %s: exit %d in %v", strings.Join(args, " "), r.code, r.elapsed.Round(time.Millisecond))
	return r
}

// mustRun runs bpfcc and fails the test unless it exits 0.
func (e *loadEnv) mustRun(t *testing.T, args ...string) result {
	t.Helper()
	r := e.run(t, args...)
	if r.code != 0 {
		t.Fatalf("bpfcc %s: %v", strings.Join(args, " "), r)
	}
	return r
}

// targetLine is what the demo target prints when it ends: "PID: N calls".
var targetLine = regexp.MustCompile(`(?m)^(\d+): (\d+) calls$`)

// targetPID returns the pid the target printed (on standard output, or
// standard error with --json) and checks its call count.
func targetPID(t *testing.T, r result, calls int) int {
	t.Helper()
	m := targetLine.FindStringSubmatch(r.stdout + r.stderr)
	if m == nil {
		t.Fatalf("the target's \"PID: N calls\" line is missing\n%v", r)
	}
	if n, _ := strconv.Atoi(m[2]); n != calls {
		t.Fatalf("the target made %d calls, want %d", n, calls)
	}
	pid, _ := strconv.Atoi(m[1])
	return pid
}

// startTarget runs the demo target in the background: calls calls of
// process (0: forever) delay microseconds apart.
func (e *loadEnv) startTarget(t *testing.T, calls, delay int) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(e.target, strconv.Itoa(calls), strconv.Itoa(delay))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	return cmd
}

// table parses the rows "  KEY VALUE" of map name's table in text output.
func table(t *testing.T, out, name string) map[int64]int64 {
	t.Helper()
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		if l != name+":" {
			continue
		}
		rows := map[int64]int64{}
		for _, l := range lines[i+1:] {
			f := strings.Fields(l)
			if len(f) == 0 || !strings.HasPrefix(l, " ") {
				break
			}
			if f[0] == "key" || f[0] == "index" {
				continue
			}
			if len(f) != 2 {
				t.Fatalf("table %s: row %q: want KEY VALUE", name, l)
			}
			k, err1 := strconv.ParseInt(f[0], 0, 64)
			v, err2 := strconv.ParseInt(f[1], 0, 64)
			if err1 != nil || err2 != nil {
				t.Fatalf("table %s: row %q: not two integers", name, l)
			}
			rows[k] = v
		}
		return rows
	}
	t.Fatalf("no table %q in the output:\n%s", name, out)
	return nil
}

// The demo target's process(size) sees 1, 2, 4, ..., 128 in turn.
func demoSizes(calls int) map[int64]int64 {
	want := map[int64]int64{}
	for i := 0; i < calls; i++ {
		want[int64(1)<<(i%8)]++
	}
	return want
}

func TestLoadCountCalls(t *testing.T) {
	e := needLoad(t)
	src := filepath.Join(examplesDir, "count_calls.c")
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"-c", []string{"--load", "process", src, "-x", e.target, "-c", e.target + " 800"}},
		{"--", []string{"--load", "process", src, "-x", e.target, "--", e.target, "800"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := e.mustRun(t, tc.args...)
			pid := targetPID(t, r, 800)
			got := table(t, r.stdout, "calls")
			if len(got) != 1 || got[int64(pid)] != 800 {
				t.Errorf("calls = %v, want {%d: 800}\n%v", got, pid, r)
			}
		})
	}
}

// histLine is one bucket of a log2 histogram: "[1]  N |@@@|" or "[LO, HI)  N |...|".
var histLine = regexp.MustCompile(`^\[(\d+)(?:, (\d+)\)|\])\s+(\d+)\s+\|@*\s*\|$`)

// hist parses the buckets of histogram name: low bound to count.
func hist(t *testing.T, out, name string) map[int64]int64 {
	t.Helper()
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		if l != name+":" {
			continue
		}
		got := map[int64]int64{}
		for _, l := range lines[i+1:] {
			m := histLine.FindStringSubmatch(strings.TrimSpace(l))
			if m == nil {
				break
			}
			lo, _ := strconv.ParseInt(m[1], 10, 64)
			n, _ := strconv.ParseInt(m[3], 10, 64)
			if m[2] != "" {
				if hi, _ := strconv.ParseInt(m[2], 10, 64); hi != 2*lo {
					t.Errorf("histogram %s: bucket %q is not a log2 bucket", name, l)
				}
			}
			got[lo] = n
		}
		return got
	}
	t.Fatalf("no histogram %q in the output:\n%s", name, out)
	return nil
}

func TestLoadHist(t *testing.T) {
	e := needLoad(t)
	src := filepath.Join(examplesDir, "hist.c")
	want := demoSizes(800) // log2 buckets [1], [2,4), ... [128,256): 100 each
	check := func(t *testing.T, r result) {
		t.Helper()
		targetPID(t, r, 800)
		got := hist(t, r.stdout, "size_hist")
		for lo, n := range got {
			if n != 0 && want[lo] != n {
				t.Errorf("bucket %d: %d, want %d", lo, n, want[lo])
			}
		}
		for lo, n := range want {
			if got[lo] != n {
				t.Errorf("bucket %d: %d, want %d\n%v", lo, got[lo], n, r)
			}
		}
	}
	// Compiled first, then loaded: --load PROBE fills in the bare
	// SEC("uprobe") at attach time.
	t.Run("object", func(t *testing.T) {
		obj := filepath.Join(t.TempDir(), "hist.o")
		e.mustRun(t, src, "-o", obj)
		check(t, e.mustRun(t, "--load", "process", obj, "-x", e.target, "-c", e.target+" 800"))
	})
	// From source, as the example documents it: the compiler binds the
	// bare section to the probe.
	t.Run("source", func(t *testing.T) {
		check(t, e.mustRun(t, "--load", "process", src, "-x", e.target, "-c", e.target+" 800"))
	})
	t.Run("json", func(t *testing.T) {
		obj := filepath.Join(t.TempDir(), "hist.o")
		e.mustRun(t, src, "-o", obj)
		r := e.mustRun(t, "--load", "process", obj, "-x", e.target, "-c", e.target+" 800", "--json")
		var h struct {
			Type, Name, Kind string
			Buckets          []struct{ Bucket, Count, Min, Max int64 }
		}
		for _, v := range jsonLines(t, r) {
			if v["type"] == "hist" {
				b, _ := json.Marshal(v)
				json.Unmarshal(b, &h)
			}
		}
		if h.Name != "size_hist" || h.Kind != "log2" {
			t.Fatalf("no log2 histogram size_hist in the JSON output\n%v", r)
		}
		got := map[int64]int64{}
		for _, b := range h.Buckets {
			got[b.Min] = b.Count
			if b.Min > 0 && b.Max != 2*b.Min {
				t.Errorf("bucket %+v is not a log2 bucket", b)
			}
		}
		for lo, n := range want {
			if got[lo] != n {
				t.Errorf("bucket %d: %d, want %d", lo, got[lo], n)
			}
		}
	})
}

// jsonLines parses every line of a --json run's standard output, except the
// target's own "PID: N calls" line, as one JSON object.
func jsonLines(t *testing.T, r result) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		var v map[string]any
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Fatalf("--json output line %q: %v\n%v", l, err, r)
		}
		out = append(out, v)
	}
	return out
}

// eventFields parses "name=value name=value" event lines.
func eventFields(l string) map[string]string {
	m := map[string]string{}
	for _, f := range strings.Fields(l) {
		if k, v, ok := strings.Cut(f, "="); ok {
			m[k] = v
		}
	}
	return m
}

func TestLoadEvents(t *testing.T) {
	e := needLoad(t)
	src := filepath.Join(examplesDir, "events.c")
	const calls = 16
	comm := filepath.Base(e.target)
	t.Run("text", func(t *testing.T) {
		r := e.mustRun(t, "--load", "process", src, "-x", e.target, "-c", fmt.Sprintf("%s %d", e.target, calls))
		pid := targetPID(t, r, calls)
		var events []map[string]string
		for _, l := range strings.Split(r.stdout, "\n") {
			if strings.HasPrefix(l, "pid=") {
				events = append(events, eventFields(l))
			}
		}
		if len(events) != calls {
			t.Fatalf("%d events, want %d\n%v", len(events), calls, r)
		}
		for i, ev := range events {
			want := map[string]string{"pid": strconv.Itoa(pid), "seq": strconv.Itoa(i), "size": strconv.Itoa(1 << (i % 8)), "comm": comm}
			for k, v := range want {
				if ev[k] != v {
					t.Errorf("event %d: %s=%s, want %s (event %v)", i, k, ev[k], v, ev)
				}
			}
		}
	})
	t.Run("json", func(t *testing.T) {
		r := e.mustRun(t, "--load", "process", src, "-x", e.target, "-c", fmt.Sprintf("%s %d", e.target, calls), "--json")
		pid := targetPID(t, r, calls)
		n := 0
		for _, v := range jsonLines(t, r) {
			if v["type"] != "event" {
				continue
			}
			d, ok := v["data"].(map[string]any)
			if !ok || v["map"] != "call" {
				t.Fatalf("event %v: want map call with decoded data", v)
			}
			if d["pid"] != float64(pid) || d["seq"] != float64(n) || d["size"] != float64(int(1)<<(n%8)) || d["comm"] != comm {
				t.Errorf("event %d: %v, want pid=%d seq=%d size=%d comm=%s", n, d, pid, n, 1<<(n%8), comm)
			}
			n++
		}
		if n != calls {
			t.Errorf("%d events, want %d\n%v", n, calls, r)
		}
	})
	// bpfcc.h's documented form: BPFCC_OUTPUT(events, struct event), a
	// record type that is named neither after the map nor by a decl tag;
	// BPFCC_OUTPUT records it through the variable events_bpfcc_event.
	t.Run("bpfcc_output", func(t *testing.T) {
		prog := filepath.Join(t.TempDir(), "out.c")
		os.WriteFile(prog, []byte(`#include <bpfcc.h>
struct event { __u32 pid; __u64 size; };
BPFCC_OUTPUT(events, struct event);
SEC("uprobe")
int on_call(struct pt_regs *ctx)
{
	struct event e = { .pid = bpf_get_current_pid_tgid() >> 32, .size = PT_REGS_PARM1(ctx) };
	bpfcc_output(events, &e);
	return 0;
}
char LICENSE[] SEC("license") = "GPL";
`), 0o644)
		r := e.mustRun(t, "--load", "process", prog, "-x", e.target, "-c", e.target+" 2")
		pid := targetPID(t, r, 2)
		for i, want := range []string{fmt.Sprintf("pid=%d size=1", pid), fmt.Sprintf("pid=%d size=2", pid)} {
			if !strings.Contains(r.stdout, want+"\n") {
				t.Errorf("event %d: no line %q\n%v", i, want, r)
			}
		}
	})
}

func TestLoadDWARFArg(t *testing.T) {
	e := needLoad(t)
	r := e.mustRun(t, "--load", filepath.Join(examplesDir, "dwarf_arg.c"), "-x", e.target, "-c", e.target+" 800")
	targetPID(t, r, 800)
	got, want := table(t, r.stdout, "by_size"), demoSizes(800)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("by_size = %v, want %v\n%v", got, want, r)
	}
}

// TestLoadCommandLifetime checks that -c runs until the command exits, and
// no longer: 40 calls 25 ms apart take at least a second. The upper bound
// only tells "ended with the command" from "ran on" (the 60 s run limit),
// so a loaded machine cannot fail it.
func TestLoadCommandLifetime(t *testing.T) {
	e := needLoad(t)
	const calls, delay = 40, 25000
	r := e.mustRun(t, "--load", "process", filepath.Join(examplesDir, "count_calls.c"), "-x", e.target, "-v",
		"-c", fmt.Sprintf("%s %d %d", e.target, calls, delay))
	pid := targetPID(t, r, calls)
	if got := table(t, r.stdout, "calls"); got[int64(pid)] != calls {
		t.Errorf("calls = %v, want {%d: %d}", got, pid, calls)
	}
	attached := attachedAfter(t, r.stderr)
	run := r.elapsed - attached
	if min := time.Duration(calls*delay) * time.Microsecond; run < min || run > min+30*time.Second {
		t.Errorf("ran %v after attaching; the command takes %v", run, min)
	}
}

// attachedRe is -v's time to attached.
var attachedRe = regexp.MustCompile(`attached (\d+) program\(s\) in ([0-9.]+) ms since start`)

func attachedAfter(t *testing.T, stderr string) time.Duration {
	t.Helper()
	m := attachedRe.FindStringSubmatch(stderr)
	if m == nil {
		t.Fatalf("no \"attached ... since start\" line with -v:\n%s", stderr)
	}
	ms, _ := strconv.ParseFloat(m[2], 64)
	return time.Duration(ms * float64(time.Millisecond))
}

// TestLoadDuration traces a running process (-p) for --duration 300ms.
func TestLoadDuration(t *testing.T) {
	e := needLoad(t)
	target := e.startTarget(t, 0, 1000) // forever, a call a millisecond
	pid := target.Process.Pid
	r := e.mustRun(t, "--load", "process", filepath.Join(examplesDir, "count_calls.c"), "-x", e.target,
		"-p", strconv.Itoa(pid), "--duration", "300ms", "-v")
	attached := attachedAfter(t, r.stderr)
	// At least the duration; the upper bound only tells "ended at the
	// duration" from "ran on" (the 60 s run limit), whatever the load.
	if run := r.elapsed - attached; run < 300*time.Millisecond || run > 30*time.Second {
		t.Errorf("ran %v after attaching, want about 300ms", run)
	}
	got := table(t, r.stdout, "calls")
	// About 300 calls unloaded, fewer when the machine is busy; only pid's.
	if len(got) != 1 || got[int64(pid)] < 1 {
		t.Errorf("calls = %v, want {%d: ~250}", got, pid)
	}
	if err := target.Process.Signal(syscall.Signal(0)); err != nil {
		t.Errorf("--duration with -p ended the traced process: %v", err)
	}
}

func TestLoadJSON(t *testing.T) {
	e := needLoad(t)
	r := e.mustRun(t, "--load", "process", filepath.Join(examplesDir, "count_calls.c"), "-x", e.target, "-c", e.target+" 100", "--json")
	pid := targetPID(t, r, 100)
	var found bool
	for _, v := range jsonLines(t, r) {
		if v["type"] != "map" || v["name"] != "calls" {
			continue
		}
		found = true
		b, _ := json.Marshal(v["entries"])
		var entries []struct{ Key, Value int64 }
		if err := json.Unmarshal(b, &entries); err != nil || len(entries) != 1 || entries[0].Key != int64(pid) || entries[0].Value != 100 {
			t.Errorf("calls entries = %s, want [{key: %d, value: 100}]", b, pid)
		}
	}
	if !found {
		t.Errorf("no map calls in the JSON output\n%v", r)
	}
}

// badProg reads a map value without checking the lookup for NULL, on line
// badLine.
const (
	badProg = `#include <bpfcc.h>

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16);
	__type(key, __u32);
	__type(value, __u64);
} counts SEC(".maps");

SEC("uprobe")
int bad(struct pt_regs *ctx)
{
	__u32 k = 0;
	__u64 *v = bpf_map_lookup_elem(&counts, &k);
	*v += 1; /* no null check */
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
`
	badLine = 15
)

func TestLoadVerifierReject(t *testing.T) {
	e := needLoad(t)
	dir := t.TempDir()
	src := filepath.Join(dir, "no_null_check.c")
	if err := os.WriteFile(src, []byte(badProg), 0o644); err != nil {
		t.Fatal(err)
	}
	obj := filepath.Join(dir, "no_null_check.o")
	e.mustRun(t, src, "-o", obj)
	for _, in := range []string{src, obj} {
		t.Run(filepath.Ext(in), func(t *testing.T) {
			r := e.run(t, "--load", "process", in, "-x", e.target, "-c", e.target+" 3")
			if r.code != 1 {
				t.Fatalf("exit %d, want 1\n%v", r.code, r)
			}
			for _, want := range []string{
				"program bad rejected by the verifier",
				"map_value_or_null",
				fmt.Sprintf("no_null_check.c:%d", badLine),
				"*v += 1; /* no null check */",
			} {
				if !strings.Contains(r.stderr, want) {
					t.Errorf("the report lacks %q\n%v", want, r)
				}
			}
			if targetLine.MatchString(r.stdout) {
				t.Errorf("the command ran although loading failed\n%v", r)
			}
		})
	}
}

func TestLoadExitStatus(t *testing.T) {
	e := needLoad(t)
	src := filepath.Join(examplesDir, "count_calls.c")
	obj := filepath.Join(t.TempDir(), "count_calls.o")
	e.mustRun(t, src, "-o", obj)
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"ok", []string{"--load", "process", obj, "-x", e.target, "-c", e.target + " 3"}, 0, ""},
		{"no input", []string{"--load"}, 2, "no input file"},
		{"bad duration", []string{"--load", src, "--duration", "soon"}, 2, "want a duration such as"},
		{"unknown option", []string{"--load", src, "--frobnicate"}, 2, "unknown option --frobnicate"},
		{"-c without argument", []string{"--load", src, "-c"}, 2, "-c needs an argument"},
		{"no such symbol", []string{"--load", "no_such_function", obj, "-x", e.target, "-c", e.target + " 3"}, 1, "no_such_function"},
		{"no such binary", []string{"--load", "/nonexistent/bin:process", obj, "--duration", "100ms"}, 1, "/nonexistent/bin"},
		{"no such probe in source", []string{"--load", "no_such_function", src, "-x", e.target}, 1, "no_such_function"},
		{"command does not start", []string{"--load", "process", obj, "-x", e.target, "-c", "/nonexistent/cmd"}, 1, "/nonexistent/cmd"},
		// The traced command's failure is the run's: its status and a line.
		{"command fails", []string{"--load", "process", obj, "-x", e.target, "-c", "false"}, 1, `the traced command "false" exited with status 1`},
		{"command exits 7", []string{"--load", "process", obj, "-x", e.target, "-c", "sh -c 'exit 7'"}, 7, "exited with status 7"},
		{"command killed", []string{"--load", "process", obj, "-x", e.target, "-c", "sh -c 'kill -SEGV $$'"}, 128 + 11, "was killed by SIGSEGV"},
		{"no such file", []string{"--load", filepath.Join(t.TempDir(), "missing.c")}, 1, "missing.c"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := e.run(t, tc.args...)
			if r.code != tc.code {
				t.Errorf("exit %d, want %d\n%v", r.code, tc.code, r)
			}
			if !strings.Contains(r.stderr, tc.stderr) {
				t.Errorf("stderr lacks %q\n%v", tc.stderr, r)
			}
		})
	}
}

// kernelState is what a run could leave behind: BPF programs, maps and links
// by id and name, and the tracefs uprobe events.
type kernelState struct {
	progs, maps map[int]string
	links       map[int]int // link id to program id
	uprobes     string
}

func bpftoolList(t *testing.T, what string, v any) {
	t.Helper()
	out, err := exec.Command("bpftool", what, "list", "-j").Output()
	if err != nil {
		t.Fatalf("bpftool %s list: %v", what, err)
	}
	if err := json.Unmarshal(out, v); err != nil {
		t.Fatalf("bpftool %s list -j: %v\n%s", what, err, out)
	}
}

// waitMapEntries polls until the map named name has an entry, or fails the
// test after limit.
func waitMapEntries(t *testing.T, name string, limit time.Duration) {
	t.Helper()
	for deadline := time.Now().Add(limit); ; time.Sleep(20 * time.Millisecond) {
		out, err := exec.Command("bpftool", "map", "dump", "name", name, "-j").Output()
		var entries []json.RawMessage
		if err == nil && json.Unmarshal(out, &entries) == nil && len(entries) > 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("map %s had no entry after %v (bpftool: %v)", name, limit, err)
		}
	}
}

func snapshot(t *testing.T) kernelState {
	t.Helper()
	s := kernelState{progs: map[int]string{}, maps: map[int]string{}, links: map[int]int{}}
	var objs []struct {
		ID     int    `json:"id"`
		Name   string `json:"name"`
		ProgID int    `json:"prog_id"`
	}
	bpftoolList(t, "prog", &objs)
	for _, o := range objs {
		s.progs[o.ID] = o.Name
	}
	objs = nil
	bpftoolList(t, "map", &objs)
	for _, o := range objs {
		s.maps[o.ID] = o.Name
	}
	objs = nil
	bpftoolList(t, "link", &objs)
	for _, o := range objs {
		s.links[o.ID] = o.ProgID
	}
	for _, f := range []string{"/sys/kernel/tracing/uprobe_events", "/sys/kernel/debug/tracing/uprobe_events"} {
		if b, err := os.ReadFile(f); err == nil {
			s.uprobes = string(b)
			break
		}
	}
	return s
}

// leftovers lists what after holds of a run's objects named prog and mapName
// that before did not.
func leftovers(before, after kernelState, prog, mapName string) []string {
	var out []string
	ours := map[int]bool{}
	for id, name := range after.progs {
		if _, old := before.progs[id]; !old && name == prog {
			out = append(out, fmt.Sprintf("program %d %s", id, name))
			ours[id] = true
		}
	}
	for id, name := range after.maps {
		if _, old := before.maps[id]; !old && name == mapName {
			out = append(out, fmt.Sprintf("map %d %s", id, name))
		}
	}
	for id, p := range after.links {
		if _, old := before.links[id]; !old && ours[p] {
			out = append(out, fmt.Sprintf("link %d (program %d)", id, p))
		}
	}
	// Only events naming this run's program count: other tests and tools
	// on the machine may add tracefs uprobes of their own meanwhile.
	for _, line := range strings.Split(after.uprobes, "\n") {
		if strings.Contains(line, prog) && !strings.Contains(before.uprobes, line) {
			out = append(out, "uprobe_events line left: "+line)
		}
	}
	return out
}

// probeByte reads the first byte of function fn in process pid: 0xcc (int3)
// while a uprobe is installed there.
func probeByte(t *testing.T, bin, fn string, pid int) byte {
	t.Helper()
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	syms, err := f.Symbols()
	if err != nil {
		t.Fatal(err)
	}
	var vaddr uint64
	for _, s := range syms {
		if s.Name == fn && elf.ST_TYPE(s.Info) == elf.STT_FUNC {
			vaddr = s.Value
		}
	}
	if vaddr == 0 {
		t.Fatalf("%s: no function %s", bin, fn)
	}
	// File offset of vaddr, then the mapping of that offset in the process.
	var off uint64
	for _, p := range f.Progs {
		if p.Type == elf.PT_LOAD && vaddr >= p.Vaddr && vaddr < p.Vaddr+p.Memsz {
			off = vaddr - p.Vaddr + p.Off
		}
	}
	maps, err := os.ReadFile(fmt.Sprintf("/proc/%d/maps", pid))
	if err != nil {
		t.Fatal(err)
	}
	real, _ := filepath.EvalSymlinks(bin)
	for _, l := range strings.Split(string(maps), "\n") {
		f := strings.Fields(l)
		if len(f) < 6 || (f[5] != bin && f[5] != real) {
			continue
		}
		lo, hi, _ := strings.Cut(f[0], "-")
		start, _ := strconv.ParseUint(lo, 16, 64)
		end, _ := strconv.ParseUint(hi, 16, 64)
		moff, _ := strconv.ParseUint(f[2], 16, 64)
		if off >= moff && off < moff+(end-start) {
			mem, err := os.Open(fmt.Sprintf("/proc/%d/mem", pid))
			if err != nil {
				t.Fatal(err)
			}
			defer mem.Close()
			b := make([]byte, 1)
			if _, err := mem.ReadAt(b, int64(start+off-moff)); err != nil {
				t.Fatal(err)
			}
			return b[0]
		}
	}
	t.Fatalf("%s+%#x is not mapped in process %d", bin, off, pid)
	return 0
}

// TestLoadCleanup kills bpfcc --load with each signal while its uprobe is
// attached to a running process and checks that no program, map, link or
// probe of the run remains.
func TestLoadCleanup(t *testing.T) {
	e := needLoad(t)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGKILL} {
		short := map[syscall.Signal]string{syscall.SIGINT: "int", syscall.SIGTERM: "term", syscall.SIGKILL: "kill"}[sig]
		t.Run("SIG"+strings.ToUpper(short), func(t *testing.T) {
			// Names unique to this run, so that other BPF users on the
			// machine do not disturb the comparison.
			prog, mapName := "bpfcc_cln_"+short, "cln_"+short
			src := filepath.Join(t.TempDir(), "cleanup.c")
			os.WriteFile(src, []byte(fmt.Sprintf(`#include <bpfcc.h>
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16);
	__type(key, __u32);
	__type(value, __u64);
} %[2]s SEC(".maps");
SEC("uprobe")
int %[1]s(struct pt_regs *ctx)
{
	__u32 pid = bpf_get_current_pid_tgid() >> 32;
	__u64 one = 1, *n = bpf_map_lookup_elem(&%[2]s, &pid);
	if (n)
		__sync_fetch_and_add(n, 1);
	else
		bpf_map_update_elem(&%[2]s, &pid, &one, BPF_NOEXIST);
	return 0;
}
char LICENSE[] SEC("license") = "GPL";
`, prog, mapName)), 0o644)
			target := e.startTarget(t, 0, 1000)
			pid := target.Process.Pid
			before := snapshot(t)
			if b := probeByte(t, e.target, "process", pid); b == 0xcc {
				t.Fatalf("process already starts with int3 before the run")
			}

			cmd := exec.Command(e.bpfcc, "--load", "process", src, "-x", e.target, "-p", strconv.Itoa(pid), "-v")
			var stdout bytes.Buffer
			cmd.Stdout = &stdout
			stderr, err := cmd.StderrPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			var errText strings.Builder
			attached := make(chan bool, 1)
			copied := make(chan struct{})
			go func() {
				defer close(copied)
				sc := bufio.NewScanner(stderr)
				sc.Buffer(make([]byte, 1<<20), 1<<20)
				seen := false
				for sc.Scan() {
					errText.WriteString(sc.Text() + "\n")
					if !seen && attachedRe.MatchString(sc.Text()) {
						seen = true
						attached <- true
					}
				}
				if !seen {
					attached <- false
				}
			}()
			select {
			case ok := <-attached:
				if !ok {
					cmd.Wait()
					<-copied
					t.Fatalf("bpfcc ended before attaching:\n%s", errText.String())
				}
			case <-time.After(30 * time.Second):
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatal("bpfcc did not attach within 30 s")
			}

			// While it runs: the program, its map and a link exist and the
			// probe is installed. This shows the comparison below can see
			// what a run leaves.
			during := snapshot(t)
			if l := leftovers(before, during, prog, mapName); len(l) < 3 {
				t.Errorf("while attached, bpftool shows only %v of the run (want program, map and link)", l)
			}
			if b := probeByte(t, e.target, "process", pid); b != 0xcc {
				t.Errorf("while attached, process starts with %#x, want int3 (0xcc)", b)
			}

			// Wait until the target (one call a millisecond) has hit the
			// probe, so a clean exit has a map to print: polled, not a fixed
			// sleep, so that a loaded machine cannot change the verdict.
			waitMapEntries(t, mapName, time.Minute)
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			werr := cmd.Wait()
			<-copied
			var ee *exec.ExitError
			switch {
			case sig == syscall.SIGKILL:
				if !errors.As(werr, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
					t.Errorf("after SIGKILL: %v", werr)
				}
			case werr != nil:
				t.Errorf("after %v bpfcc exited with %v, want 0\n%s", sig, werr, errText.String())
			default:
				// A clean exit still prints the map.
				if !strings.Contains(stdout.String(), mapName+":") {
					t.Errorf("after %v the map was not printed:\n%s", sig, stdout.String())
				}
			}

			// The kernel frees programs of a killed process asynchronously;
			// give it a moment.
			var left []string
			for deadline := time.Now().Add(time.Minute); ; time.Sleep(50 * time.Millisecond) {
				left = leftovers(before, snapshot(t), prog, mapName)
				if len(left) == 0 || time.Now().After(deadline) {
					break
				}
			}
			if len(left) > 0 {
				t.Errorf("after %v these remain: %s", sig, strings.Join(left, "; "))
			}
			if b := probeByte(t, e.target, "process", pid); b == 0xcc {
				t.Errorf("after %v the target still has int3 at process", sig)
			}
			if err := target.Process.Signal(syscall.Signal(0)); err != nil {
				t.Errorf("the traced process died: %v", err)
			}
		})
	}
}

// A BTF-typed tracepoint program (tp_btf/, attached as a tracing link, as
// libbpf does; fentry/, fexit/ and lsm/ take the same path) counts the
// scheduler switches of a short run: there are some on any live system.
func TestLoadTracingBTF(t *testing.T) {
	e := needLoad(t)
	src := filepath.Join(t.TempDir(), "switches.c")
	prog := `#include <linux/bpf.h>
#include <stdbool.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
struct task_struct;
struct { __uint(type, BPF_MAP_TYPE_ARRAY); __uint(max_entries, 1); __type(key, __u32); __type(value, __u64); } switches SEC(".maps");
SEC("tp_btf/sched_switch")
int BPF_PROG(on_switch, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	__u32 k = 0;
	__u64 *v = bpf_map_lookup_elem(&switches, &k);
	if (v)
		__sync_fetch_and_add(v, 1);
	return 0;
}
char LICENSE[] SEC("license") = "GPL";
`
	if err := os.WriteFile(src, []byte(prog), 0o644); err != nil {
		t.Fatal(err)
	}
	r := e.mustRun(t, "--load", src, "--duration", "300ms")
	if got := table(t, r.stdout, "switches"); got[0] <= 0 {
		t.Errorf("switches = %v, want some\n%v", got, r)
	}
}

// A rejected access inside a header under a subdirectory is reported at
// the path the source includes (the kernel's log gives only the base name).
func TestLoadVerifierRejectInHeader(t *testing.T) {
	e := needLoad(t)
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "inc"), 0o755); err != nil {
		t.Fatal(err)
	}
	header := "static __always_inline void bump(__u64 *v)\n{\n\t*v += 1; /* in the header */\n}\n"
	prog := strings.Replace(badProg, "\t*v += 1; /* no null check */\n", "\tbump(v);\n", 1)
	prog = strings.Replace(prog, "#include <bpfcc.h>\n", "#include <bpfcc.h>\n#include \"inc/bump.h\"\n", 1)
	src := filepath.Join(dir, "hdr.c")
	for path, text := range map[string]string{src: prog, filepath.Join(dir, "inc", "bump.h"): header} {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := e.run(t, "--load", "process", src, "-x", e.target, "-c", e.target+" 3")
	if r.code != 1 {
		t.Fatalf("exit %d, want 1\n%v", r.code, r)
	}
	for _, want := range []string{"inc/bump.h:3", "*v += 1; /* in the header */"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("the report lacks %q\n%v", want, r)
		}
	}
}

// -c traces the command's whole process tree: here the demo target is a
// grandchild of the shell bpfcc starts (sh runs the pipeline's left side
// in an inner sh, which forks the target), and its calls are all counted,
// under the target's own PID.
func TestLoadProcessTree(t *testing.T) {
	e := needLoad(t)
	src := filepath.Join(examplesDir, "count_calls.c")
	r := e.mustRun(t, "--load", "process", src, "-x", e.target, "-v", "-c", "sh -c 'sh -c \""+e.target+" 5; true\" | cat'")
	pid := targetPID(t, r, 5)
	got := table(t, r.stdout, "calls")
	if len(got) != 1 || got[int64(pid)] != 5 {
		t.Errorf("calls = %v, want {%d: 5}\n%v", got, pid, r)
	}
	if !strings.Contains(r.stderr, "process filter: PID ") {
		t.Errorf("-v does not name the process filter:\n%s", r.stderr)
	}
}

// A run that collects nothing says so, with the reason.
func TestLoadNothingCollected(t *testing.T) {
	e := needLoad(t)
	src := filepath.Join(examplesDir, "count_calls.c")
	r := e.mustRun(t, "--load", "process", src, "-x", e.target, "-c", "true")
	if !strings.Contains(r.stderr, "nothing collected: the probes never fired: no process reached uprobe "+e.target+":process during the run") {
		t.Errorf("no \"nothing collected\" line with its reason:\n%v", r)
	}
}

// Without -x, a uprobe probes the binary of the command (-c or --), from
// source and from an object; with neither, the error says to add -x, and
// a bare SEC("uprobe") never becomes a kprobe.
func TestLoadInferBinary(t *testing.T) {
	e := needLoad(t)
	src := filepath.Join(examplesDir, "count_calls.c")
	obj := filepath.Join(t.TempDir(), "count_calls.o")
	e.mustRun(t, src, "-o", obj)
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"source -c", []string{"--load", "process", src, "-c", e.target + " 16"}},
		{"object --", []string{"--load", "process", obj, "--", e.target, "16"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := e.mustRun(t, tc.args...)
			pid := targetPID(t, r, 16)
			if got := table(t, r.stdout, "calls"); len(got) != 1 || got[int64(pid)] != 16 {
				t.Errorf("calls = %v, want {%d: 16}\n%v", got, pid, r)
			}
		})
	}
	for _, input := range []string{src, obj} {
		t.Run("no binary "+filepath.Ext(input), func(t *testing.T) {
			r := e.run(t, "--load", "process", input, "--duration", "10s")
			if r.code != exitInput || !strings.Contains(r.stderr, "add -x BINARY") || strings.Contains(r.stderr, "kprobe") {
				t.Errorf("want exit 1 and \"add -x BINARY\", no kprobe:\n%v", r)
			}
		})
	}
	t.Run("not in the command's binary", func(t *testing.T) {
		r := e.run(t, "--load", "process", obj, "--", "sh", "-c", e.target+" 1")
		if r.code != exitInput || !strings.Contains(r.stderr, "without -x, uprobes probe the command's binary") {
			t.Errorf("want exit 1 and a note that the binary was the command's:\n%v", r)
		}
	})
}

// The traced command's output and bpfcc's results never share a stream:
// --json on standard output is JSON only (the command's standard output
// goes to standard error), and -o FILE takes the results while the
// command keeps standard output.
func TestLoadStreams(t *testing.T) {
	e := needLoad(t)
	src := filepath.Join(examplesDir, "count_calls.c")
	countIn := func(t *testing.T, entries any, pid int) {
		t.Helper()
		b, _ := json.Marshal(entries)
		var es []struct{ Key, Value int64 }
		if err := json.Unmarshal(b, &es); err != nil || len(es) != 1 || es[0].Key != int64(pid) || es[0].Value != 5 {
			t.Errorf("calls entries = %s, want [{key: %d, value: 5}]", b, pid)
		}
	}
	t.Run("json", func(t *testing.T) {
		r := e.mustRun(t, "--load", "process", src, "-x", e.target, "--json", "-c", e.target+" 5")
		if targetLine.MatchString(r.stdout) || !targetLine.MatchString(r.stderr) {
			t.Fatalf("the command's output should be on standard error:\n%v", r)
		}
		// Every line of standard output is a JSON value (what jq reads).
		dec := json.NewDecoder(strings.NewReader(r.stdout))
		n := 0
		for {
			var v map[string]any
			if err := dec.Decode(&v); err != nil {
				if err.Error() != "EOF" {
					t.Fatalf("standard output is not JSON only: %v\n%v", err, r)
				}
				break
			}
			if v["name"] == "calls" {
				countIn(t, v["entries"], targetPID(t, r, 5))
			}
			n++
		}
		if n == 0 {
			t.Errorf("no JSON output\n%v", r)
		}
	})
	t.Run("-o", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "results.txt")
		r := e.mustRun(t, "--load", "process", src, "-x", e.target, "-o", out, "-c", e.target+" 5")
		pid := targetPID(t, r, 5)
		if strings.Contains(r.stdout, "calls:") || !targetLine.MatchString(r.stdout) {
			t.Errorf("standard output should hold the command's output only:\n%v", r)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if got := table(t, string(b), "calls"); len(got) != 1 || got[int64(pid)] != 5 {
			t.Errorf("-o file: calls = %v, want {%d: 5}\n%s", got, pid, b)
		}
	})
	t.Run("-o --json", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "results.json")
		r := e.mustRun(t, "--load", "process", src, "-x", e.target, "-o", out, "--json", "-c", e.target+" 5")
		pid := targetPID(t, r, 5)
		if !targetLine.MatchString(r.stdout) {
			t.Errorf("with -o the command keeps standard output:\n%v", r)
		}
		b, _ := os.ReadFile(out)
		found := false
		for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			var v map[string]any
			if err := json.Unmarshal([]byte(l), &v); err != nil {
				t.Fatalf("-o file line %q: %v", l, err)
			}
			if v["name"] == "calls" {
				found = true
				countIn(t, v["entries"], pid)
			}
		}
		if !found {
			t.Errorf("no calls map in the -o file:\n%s", b)
		}
	})
	t.Run("-o input", func(t *testing.T) {
		dir := t.TempDir()
		cp := filepath.Join(dir, "count_calls.c")
		b, _ := os.ReadFile(src)
		os.WriteFile(cp, b, 0o644)
		r := e.run(t, "--load", "process", cp, "-x", e.target, "-o", cp, "-c", e.target+" 5")
		if after, _ := os.ReadFile(cp); r.code != exitUsage || !bytes.Equal(after, b) {
			t.Errorf("-o naming the input: want exit 2 and the source intact:\n%v", r)
		}
	})
}

// A signal that arrives before the probes are attached ends the run, with
// the shell's status for that signal and nothing left behind, also when
// bpfcc inherited SIGINT as ignored (a background job of a script). The
// source is a FIFO: bpfcc opens it while compiling, after installing its
// handlers, and blocks there until the test, having sent the signal,
// writes the program; so the signal always arrives before the programs
// are loaded, however fast or slow the machine. (The FIFO is a header the
// program includes: the preprocessor reads it once, while the compiler
// reads the main file again for line info.) Without a handler the
// ignored SIGINT would be lost and the run (no command, no --duration)
// would go on until the test's limit.
func TestLoadSignalBeforeAttach(t *testing.T) {
	e := needLoad(t)
	prog, err := os.ReadFile(filepath.Join(examplesDir, "count_calls.c"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		ignore bool
		sig    syscall.Signal
	}{
		{"SIGINT inherited ignored", true, syscall.SIGINT},
		{"SIGINT", false, syscall.SIGINT},
		{"SIGTERM", false, syscall.SIGTERM},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			src, fifo := filepath.Join(dir, "prog.c"), filepath.Join(dir, "gate.h")
			if err := syscall.Mkfifo(fifo, 0o600); err != nil {
				t.Fatal(err)
			}
			os.WriteFile(src, append([]byte("#include \"gate.h\"\n"), prog...), 0o644)
			args := []string{"--load", "process", src, "-x", e.target}
			var cmd *exec.Cmd
			if tc.ignore {
				// sh's trap "" INT sets SIG_IGN, which exec keeps.
				cmd = exec.Command("sh", append([]string{"-c", `trap "" INT; exec "$0" "$@"`, e.bpfcc}, args...)...)
			} else {
				cmd = exec.Command(e.bpfcc, args...)
			}
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			before := snapshot(t)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			opened := make(chan *os.File, 1)
			go func() {
				f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
				if err != nil {
					f = nil
				}
				opened <- f
			}()
			var w *os.File
			select {
			case w = <-opened:
			case err := <-exited:
				// Unblock the opener, then fail.
				if r, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
					r.Close()
				}
				t.Fatalf("bpfcc exited before reading its source: %v\n%s", err, stderr.String())
			}
			if w == nil {
				t.Fatal("cannot open the FIFO")
			}
			cmd.Process.Signal(tc.sig)
			w.Write([]byte("/* the signal was sent */\n"))
			w.Close()
			select {
			case err = <-exited:
			case <-time.After(60 * time.Second):
				cmd.Process.Kill()
				<-exited
				t.Fatalf("bpfcc still running 60 s after %v\nstderr:\n%s", tc.sig, stderr.String())
			}
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 128+int(tc.sig) {
				t.Errorf("exit = %v, want status %d\nstderr:\n%s", err, 128+int(tc.sig), stderr.String())
			}
			if !strings.Contains(stderr.String(), "interrupted before the probes were attached") || stdout.Len() != 0 {
				t.Errorf("want the interruption reported and no output:\nstdout:\n%s\nstderr:\n%s", stdout.String(), stderr.String())
			}
			if left := leftovers(before, snapshot(t), "count", "calls"); len(left) > 0 {
				t.Errorf("left behind: %v", left)
			}
		})
	}
}

// Messages a person can act on: a misspelled kernel function, tracepoint
// or uprobe function gets "did you mean"; an EPERM that capabilities do
// not explain names the security policy, never cilium/ebpf's advice for Go
// callers (rlimit.RemoveMemlock).
func TestLoadMessages(t *testing.T) {
	e := needLoad(t)
	dir := t.TempDir()
	write := func(name, sec, body string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(`#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
struct { __uint(type, BPF_MAP_TYPE_ARRAY); __uint(max_entries, 1); __type(key, __u32); __type(value, __u64); } hits SEC(".maps");
SEC("`+sec+`")
`+body+`
{
	__u32 k = 0;
	__u64 *v = bpf_map_lookup_elem(&hits, &k);
	if (v)
		__sync_fetch_and_add(v, 1);
	return 0;
}
char LICENSE[] SEC("license") = "GPL";
`), 0o644)
		return p
	}
	obj := filepath.Join(dir, "count_calls.o")
	e.mustRun(t, filepath.Join(examplesDir, "count_calls.c"), "-o", obj)
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"fentry", []string{"--load", write("fe.c", "fentry/do_nanosleeep", "int BPF_PROG(on_sleep)"), "--duration", "10s"},
			"no such kernel function: do_nanosleeep (did you mean do_nanosleep?)"},
		{"tracepoint", []string{"--load", write("tp.c", "tp/sched/sched_proces_exec", "int on_exec(void *ctx)"), "--duration", "10s"},
			"no such tracepoint: sched/sched_proces_exec (did you mean sched/sched_process_exec"},
		{"tp_btf", []string{"--load", write("tpbtf.c", "tp_btf/sched_proces_exec", "int on_exec(void *ctx)"), "--duration", "10s"},
			"no such tracepoint: sched_proces_exec (did you mean sched_process_exec"},
		{"uprobe", []string{"--load", "proces", filepath.Join(examplesDir, "count_calls.c"), "-x", e.target, "-c", e.target + " 1"},
			`handler "count": probe proces: function "proces" not found; did you mean process?`},
		{"uprobe object", []string{"--load", "proces", obj, "-x", e.target, "-c", e.target + " 1"},
			"proces is not a function of " + e.target + " (did you mean process?)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := e.run(t, tc.args...)
			if r.code != exitInput || !strings.Contains(r.stderr, tc.want) || strings.Contains(r.stderr, "not supported") {
				t.Errorf("want exit 1 and %q\n%v", tc.want, r)
			}
		})
	}
	t.Run("EPERM", func(t *testing.T) {
		r := e.run(t, "--load", write("fe_ok.c", "fentry/do_nanosleep", "int BPF_PROG(on_sleep)"), "--duration", "100ms")
		if r.code == 0 {
			t.Skip("fentry programs load on this machine")
		}
		if !strings.Contains(r.stderr, "operation not permitted") {
			t.Skipf("fentry fails here for another reason:\n%v", r)
		}
		for _, bad := range []string{"RemoveMemlock", "MEMLOCK", "locked-memory"} {
			if strings.Contains(r.stderr, bad) {
				t.Errorf("the message blames the memlock limit (%q) as root:\n%v", bad, r)
			}
		}
		if !strings.Contains(r.stderr, "although bpfcc runs with the capabilities BPF needs") || !strings.Contains(r.stderr, "hint: a security policy") {
			t.Errorf("the message does not say that a policy, not privileges, refused it:\n%v", r)
		}
	})
}
