package main

// End-to-end tests of bpfcc --load: they build the bpfcc binary and the demo
// target (examples/demo/target.c, with gcc), run `bpfcc --load ...` as a
// subprocess against the target and check what it prints, how it exits and
// that it leaves nothing behind in the kernel. They need root (or
// CAP_BPF+CAP_PERFMON) and gcc; without them they skip with the reason,
// except under CI=true, where they fail.

import (
	"bytes"
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
			if b.Min > 0 && b.Max != 2*b.Min-1 { // max is inclusive
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

// BPFCC_HIST_ADD of a signed value counts the values below 0 in "(..., 0)",
// as bpftrace's hist() (a syscall's -errno landed in the top bucket), in
// text and JSON; the rows go on from [0].
func TestLoadSignedHist(t *testing.T) {
	e := needLoad(t)
	src := filepath.Join(t.TempDir(), "delta.c")
	os.WriteFile(src, []byte(`#include <bpfcc.h>
BPFCC_HIST(delta, 65);
SEC("uprobe")
int h(struct pt_regs *ctx)
{
	long d = (long)PT_REGS_PARM1(ctx) - 4;

	BPFCC_HIST_ADD(delta, d);
	return 0;
}
char LICENSE[] SEC("license") = "GPL";
`), 0o644)
	// Sizes 1, 2, 4, ..., 128, 100 calls each: d = -3, -2, 0, 4, 12, ...
	r := e.mustRun(t, "--load", "process", src, "-x", e.target, "-c", e.target+" 800")
	if !regexp.MustCompile(`(?m)^delta_hist:\n\(\.\.\., 0\) +200 \|@+ *\|\n\[0\] +100 \|`).MatchString(r.stdout) {
		t.Errorf("want (..., 0) 200 then [0] 100:\n%s", r.stdout)
	}
	r = e.mustRun(t, "--load", "process", src, "-x", e.target, "-c", e.target+" 800", "--json")
	if !strings.Contains(r.stdout, `{"bucket":-1,"count":200,"max":-1}`) {
		t.Errorf("no negative bucket in the JSON:\n%s", r.stdout)
	}
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
