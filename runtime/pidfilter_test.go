package runtime

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// countRows returns the rows of the "calls" table: pid -> count.
func countRows(t *testing.T, out string) map[string]string {
	t.Helper()
	rows := map[string]string{}
	for _, m := range regexp.MustCompile(`(?m)^ +(\d+) +(\d+)$`).FindAllStringSubmatch(out, -1) {
		rows[m[1]] = m[2]
	}
	return rows
}

// A command run through a shell is traced in the shell's grandchild: the
// outer sh forks the pipeline's left side (an inner sh), which forks the
// target. The perf-event PID filter saw only the outer shell and counted
// nothing.
func TestTreeFilterGrandchild(t *testing.T) {
	needKernel(t)
	bin := buildTarget(t)
	cmdline := "sh -c '" + bin + " 7; true' | cat"
	out, stderr, err := runSpec(t, countSpec("uprobe/"+bin+":work"), Options{Command: []string{"sh", "-c", cmdline}, Verbose: true})
	if err != nil {
		t.Fatalf("Run: %v\n%s", Describe(err), stderr)
	}
	rows := countRows(t, out)
	if len(rows) != 1 {
		t.Fatalf("want one process in the table, got %v:\n%s\nstderr:\n%s", rows, out, stderr)
	}
	for _, n := range rows {
		if n != "7" {
			t.Errorf("count = %s, want 7\n%s", n, out)
		}
	}
	if !strings.Contains(stderr, "process filter: PID ") || !strings.Contains(stderr, "7 probe hits in the traced processes") {
		t.Errorf("-v does not name the filter and its counts:\n%s", stderr)
	}
}

// -p traces the process, the children it had when bpfcc started and the
// ones they start later; a process outside the tree that calls the probed
// function all along is not counted.
func TestTreeFilterPID(t *testing.T) {
	needKernel(t)
	bin := buildTarget(t)
	outsider := exec.Command(bin, "-1")
	if err := outsider.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { outsider.Process.Kill(); outsider.Wait() }()
	// The subshell exists before the run; it starts the target only once
	// the test writes a line, after the probes are attached.
	// (A background job's standard input is /dev/null: the line comes
	// through fd 3.)
	tree := exec.Command("sh", "-c", "(read x <&3; "+bin+" 5; true) & wait")
	gate, release, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	tree.ExtraFiles = []*os.File{gate}
	if err := tree.Start(); err != nil {
		t.Fatal(err)
	}
	gate.Close()
	defer release.Close()
	done := make(chan error, 1)
	go func() { done <- tree.Wait() }()
	// Wait until the subshell is there for the scan to find.
	for deadline := time.Now().Add(30 * time.Second); len(descendantsOf(tree.Process.Pid)) == 0; {
		if time.Now().After(deadline) {
			t.Fatal("the subshell did not start")
		}
		time.Sleep(10 * time.Millisecond)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { <-done; cancel() }()
	var outb, errb strings.Builder
	err = Run(ctx, countSpec("uprobe/"+bin+":work"), Options{
		PID: tree.Process.Pid, Stdout: &outb, Stderr: &errb,
		Ready: func() { release.Write([]byte("go\n")); release.Close() },
	})
	if err != nil {
		t.Fatalf("Run: %v\n%s", Describe(err), errb.String())
	}
	rows := countRows(t, outb.String())
	if len(rows) != 1 {
		t.Fatalf("want one process (the target started by the subshell), got %v:\n%s", rows, outb.String())
	}
	for pid, n := range rows {
		if n != "5" {
			t.Errorf("count = %s, want 5", n)
		}
		if pid == itoa(outsider.Process.Pid) {
			t.Errorf("the process outside the tree was counted")
		}
	}
}

// A run whose probes never fire in the traced process says so.
func TestNothingCollected(t *testing.T) {
	needKernel(t)
	bin := buildTarget(t)
	out, stderr, err := runSpec(t, countSpec("uprobe/"+bin+":work"), Options{Command: []string{"true"}})
	if err != nil {
		t.Fatalf("Run: %v\n%s", Describe(err), stderr)
	}
	if out != "" {
		t.Errorf("stdout = %q, want nothing", out)
	}
	want := "nothing collected: the probes never fired: no process reached uprobe " + bin + ":work during the run"
	if !strings.Contains(stderr, want) {
		t.Errorf("stderr = %q, want %q", stderr, want)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// A verifier report on a filtered program counts instructions from the
// program's own first one, not from the prepended check.
func TestTreeFilterVerifierReport(t *testing.T) {
	needKernel(t)
	bin := buildTarget(t)
	src := t.TempDir() + "/prog.c"
	os.WriteFile(src, []byte("l1\nl2\nl3\nl4\n\tkey = 0;\n\tv = bpf_map_lookup_elem(&calls, &key);\n\treturn *v;\n}\n"), 0o644)
	_, _, err := runSpec(t, rejectedSpec("uprobe/"+bin+":work", src), Options{Command: []string{"true"}})
	var r *VerifierReport
	if !errors.As(err, &r) {
		t.Fatalf("err = %v, want a *VerifierReport", err)
	}
	if r.Insn != 6 || r.Line != 7 {
		t.Errorf("report at instruction %d, line %d; want 6, 7 as without the filter", r.Insn, r.Line)
	}
}

// Run ends before loading anything when ctx is already done.
func TestInterruptedBeforeLoad(t *testing.T) {
	needKernel(t)
	bin := buildTarget(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := Run(ctx, countSpec("uprobe/"+bin+":work"), Options{Command: []string{bin, "1"}})
	if !errors.Is(err, ErrInterrupted) {
		t.Fatalf("err = %v, want ErrInterrupted", err)
	}
}

// Sleepable uprobes carry the check too (the PID set is a map type that
// sleepable programs may use).
func TestTreeFilterSleepable(t *testing.T) {
	needKernel(t)
	bin := buildTarget(t)
	out, stderr, err := runSpec(t, countSpec("uprobe.s/"+bin+":work"), Options{Command: []string{"sh", "-c", bin + " 9; true"}})
	if err != nil {
		t.Fatalf("Run: %v\n%s", Describe(err), stderr)
	}
	if rows := countRows(t, out); len(rows) != 1 || !strings.Contains(out, " 9\n") {
		t.Errorf("want one process with 9 calls:\n%s", out)
	}
}

// -p of a process that does not map the probed binary, and starts no
// process that does, collects nothing and says why.
func TestNothingCollectedUnmapped(t *testing.T) {
	needKernel(t)
	bin := buildTarget(t)
	idle := exec.Command("sleep", "1000")
	if err := idle.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { idle.Process.Kill(); idle.Wait() }()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var outb, errb strings.Builder
	err := Run(ctx, countSpec("uprobe/"+bin+":work"), Options{PID: idle.Process.Pid, Stdout: &outb, Stderr: &errb, Ready: cancel})
	if err != nil {
		t.Fatalf("Run: %v", Describe(err))
	}
	want := fmt.Sprintf("process %d does not map %s", idle.Process.Pid, bin)
	if !strings.Contains(errb.String(), "nothing collected: the probes never fired") || !strings.Contains(errb.String(), want) {
		t.Errorf("stderr = %q, want the reason %q", errb.String(), want)
	}
}

// TestDescendantsMatchScan: the walk down the children files finds the
// processes the scan of every process's parent finds, nested ones too.
func TestDescendantsMatchScan(t *testing.T) {
	tree := exec.Command("sh", "-c", "(sleep 30 & wait) & sleep 30 & wait")
	if err := tree.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		for _, p := range descendantsByScan(tree.Process.Pid) {
			syscall.Kill(p, syscall.SIGKILL)
		}
		tree.Process.Kill()
		tree.Wait()
	}()
	root := tree.Process.Pid
	for deadline := time.Now().Add(30 * time.Second); len(descendantsByScan(root)) < 3; {
		if time.Now().After(deadline) {
			t.Fatalf("the tree did not start: %v", descendantsByScan(root))
		}
		time.Sleep(10 * time.Millisecond)
	}
	want := descendantsByScan(root)
	got := descendantsOf(root)
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("descendantsOf(%d) = %v, the scan finds %v", root, got, want)
	}
}
