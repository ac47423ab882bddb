package main

// End-to-end tests of bpfcc --load (load_test.go): verifier messages, exit status, tracing programs, process trees, streams, signals and messages.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

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

// TestProcessStartBeforeInit: -v's time to attached counts from before
// package init, by the main thread's CPU time so far (never zero: the
// runtime and every package's init ran on it).
func TestProcessStartBeforeInit(t *testing.T) {
	now := time.Now()
	d := now.Sub(processStart(now))
	if d <= 0 || d > time.Minute {
		t.Errorf("processStart is %v before now, want a positive CPU time under a minute", d)
	}
}
