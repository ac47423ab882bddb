package main

// End-to-end tests of stack printing: user stacks from a uprobe compared
// with gdb's backtrace at the same instruction, and kernel stacks from a
// tracepoint checked against /proc/kallsyms. Every step waits for an
// event (a line printed, a process exiting), never for a time.

import (
	"bufio"
	"debug/elf"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

const stacksDir = "testdata/stacks"

// gccBuild compiles testdata/stacks/NAME.c with gcc -g -O0.
func gccBuild(t *testing.T, e *loadEnv, name string) string {
	t.Helper()
	bin := filepath.Join(e.dir, name)
	if out, err := exec.Command("gcc", "-g", "-O0", "-o", bin, filepath.Join(stacksDir, name+".c")).CombinedOutput(); err != nil {
		t.Fatalf("gcc %s.c: %v\n%s", name, err, out)
	}
	return bin
}

// gdbFrame is one frame of gdb's bt: function, file base name and line.
type gdbFrame struct {
	fn, file string
	line     int
}

func (f gdbFrame) String() string { return fmt.Sprintf("%s %s:%d", f.fn, f.file, f.line) }

var (
	gdbBreak = regexp.MustCompile(`(?m)^Breakpoint 1 at (0x[0-9a-f]+): file .*, line \d+\.$`)
	gdbBt    = regexp.MustCompile(`(?m)^#(\d+) +(?:0x[0-9a-f]+ in )?(\w+) \(.*\) at (\S+):(\d+)$`)
	// A frame of bpfcc's "NAME stacks:" section: "#N  FUNC+0xOFF (FILE:LINE)".
	attachedLine = regexp.MustCompile(`attached \d+ program\(s\) in `)
	stackFrame   = regexp.MustCompile(`^ +#(\d+) +(\w+)(?:\+0x[0-9a-f]+)?(?: \((\S+):(\d+)\))?`)
)

// gdbBacktrace runs bin under gdb in batch mode, stops at fn's breakpoint
// (after the prologue, as gdb places it) and returns the breakpoint's
// address and the backtrace there.
func gdbBacktrace(t *testing.T, bin, fn string) (uint64, []gdbFrame) {
	t.Helper()
	out, err := exec.Command("gdb", "-nx", "-batch", "-ex", "break "+fn, "-ex", "run < /dev/null", "-ex", "bt", bin).CombinedOutput()
	if err != nil {
		t.Fatalf("gdb: %v\n%s", err, out)
	}
	m := gdbBreak.FindStringSubmatch(string(out))
	if m == nil {
		t.Fatalf("gdb set no breakpoint:\n%s", out)
	}
	addr, _ := strconv.ParseUint(m[1], 0, 64)
	var frames []gdbFrame
	for _, m := range gdbBt.FindAllStringSubmatch(string(out), -1) {
		n, _ := strconv.Atoi(m[4])
		frames = append(frames, gdbFrame{m[2], filepath.Base(m[3]), n})
	}
	if len(frames) < 4 {
		t.Fatalf("gdb's backtrace has %d frames, want main, a, b and %s:\n%s", len(frames), fn, out)
	}
	return addr, frames
}

// symbolValue is the address of function fn in bin's symbol table.
func symbolValue(t *testing.T, bin, fn string) uint64 {
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
	for _, s := range syms {
		if s.Name == fn {
			return s.Value
		}
	}
	t.Fatalf("%s: no symbol %s", bin, fn)
	return 0
}

// stackSections parses the "NAME stacks:" section of text output: the
// frames of each stack member, by member name (of the first entry).
func stackSections(out, name string) map[string][]gdbFrame {
	res := map[string][]gdbFrame{}
	in := false
	member := ""
	for _, l := range strings.Split(out, "\n") {
		switch {
		case l == name+" stacks:":
			in = true
		case !in:
		case l == "":
			return res
		case strings.HasPrefix(l, "    ") && !strings.HasPrefix(l, "      ") && strings.HasSuffix(l, ":"):
			member = strings.TrimSuffix(strings.TrimSpace(l), ":")
		default:
			if m := stackFrame.FindStringSubmatch(l); m != nil && member != "" {
				n, _ := strconv.Atoi(m[4])
				res[member] = append(res[member], gdbFrame{m[2], filepath.Base(m[3]), n})
			}
		}
	}
	return res
}

// TestLoadUserStack probes chain.c's probed() at the address where gdb
// breaks in it, records the user stack with bpf_get_stackid and with
// bpf_get_stack, and checks that both print the frames of gdb's bt there:
// the same functions, files and lines, innermost first.
func TestLoadUserStack(t *testing.T) {
	e := needLoad(t)
	if _, err := exec.LookPath("gdb"); err != nil {
		skipOrFail(t, "TestLoadUserStack needs gdb")
	}
	bin := gccBuild(t, e, "chain")
	addr, want := gdbBacktrace(t, bin, "probed")
	off := addr - symbolValue(t, bin, "probed")
	// gdb runs a PIE at 0x555555554000; the breakpoint it reports before
	// running is the link-time address.
	if off > 0x100 {
		t.Fatalf("breakpoint 0x%x is %#x past probed", addr, off)
	}

	// The target runs the chain when a line arrives, then waits for EOF.
	target := exec.Command(bin)
	tin, err := target.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	tout, err := target.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := target.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		tin.Close()
		target.Process.Kill()
		target.Wait()
	}()

	cmd := exec.Command(e.bpfcc, "--load", fmt.Sprintf("probed+%d", off), filepath.Join(stacksDir, "ustack.c"), "-x", bin, "-p", strconv.Itoa(target.Process.Pid), "-v")
	var stdout strings.Builder
	cmd.Stdout = &stdout
	errPipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	var stderr strings.Builder
	attached := make(chan struct{})
	stderrDone := make(chan struct{})
	go func() {
		defer close(stderrDone)
		sc := bufio.NewScanner(errPipe)
		once := false
		for sc.Scan() {
			stderr.WriteString(sc.Text() + "\n")
			if !once && attachedLine.MatchString(sc.Text()) {
				once = true
				close(attached)
			}
		}
		if !once {
			close(attached)
		}
	}()
	<-attached
	if _, err := io.WriteString(tin, "go\n"); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(tout).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "done") {
		t.Fatalf("target: %q, %v", line, err)
	}
	// The uprobe ran in the target before it printed "done".
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	<-stderrDone
	if err := cmd.Wait(); err != nil {
		t.Fatalf("bpfcc: %v\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
	}
	out := stdout.String()
	t.Logf("bpfcc output:\n%s", out)
	// The table shows the bpf_get_stack buffer as its frame count.
	if !regexp.MustCompile(`(?m)^ +\d+ +\d+ +<\d+ frames> +1$`).MatchString(out) {
		t.Errorf("the table row does not summarise frames as <N frames>:\n%s", out)
	}
	checkUserFrames(t, out, want)
	if t.Failed() {
		t.Logf("stderr:\n%s", stderr.String())
	}
}

// TestLoadKernelStack records kernel stacks of getpid from the
// sys_enter_getpid tracepoint with bpf_get_stackid and checks that every
// printed frame is a function of /proc/kallsyms, in text and --folded.
func TestLoadKernelStack(t *testing.T) {
	e := needLoad(t)
	bin := gccBuild(t, e, "getpid")
	ksyms := map[string]bool{}
	data, err := os.ReadFile("/proc/kallsyms")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(data), "\n") {
		if fs := strings.Fields(l); len(fs) >= 3 {
			ksyms[fs[2]] = true
		}
	}
	src := filepath.Join(stacksDir, "kstack.c")

	r := e.mustRun(t, "--load", src, "-c", bin)
	got := stackSections(r.stdout, "counts")
	frames := got["kern_stack_id"]
	if len(frames) == 0 {
		t.Fatalf("no kernel frames:\n%v", r)
	}
	for _, f := range frames {
		if !ksyms[f.fn] {
			t.Errorf("frame %s is not in /proc/kallsyms\n%v", f.fn, r)
		}
	}

	// --json: each row's "stacks" holds the frames, with names and addresses.
	r = e.mustRun(t, "--load", src, "--json", "-c", bin)
	var jframes int
	for _, l := range jsonLines(t, r) {
		if l["type"] != "map" || l["name"] != "counts" {
			continue
		}
		for _, row := range l["entries"].([]any) {
			st, _ := row.(map[string]any)["stacks"].(map[string]any)
			fs, _ := st["kern_stack_id"].([]any)
			for _, f := range fs {
				fm := f.(map[string]any)
				if fn, _ := fm["func"].(string); !ksyms[fn] || fm["addr"] == nil || fm["module"] != "kernel" {
					t.Errorf("JSON frame %v: want a /proc/kallsyms function, its address and module kernel", fm)
				}
				jframes++
			}
		}
	}
	if jframes == 0 {
		t.Errorf("no frames in the JSON output\n%v", r)
	}

	r = e.mustRun(t, "--load", src, "--folded", "-c", bin)
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	folded := regexp.MustCompile(`^(\S+) (\d+)$`)
	for _, l := range lines {
		m := folded.FindStringSubmatch(l)
		if m == nil {
			t.Fatalf("not a folded line: %q\n%v", l, r)
		}
		for _, fn := range strings.Split(m[1], ";") {
			if !ksyms[fn] {
				t.Errorf("folded frame %s is not in /proc/kallsyms\n%v", fn, r)
			}
		}
	}
}

// TestLoadUserStackShortCommand runs the chain as -c's command with an
// empty standard input, so that it exits at once, before any reading of
// its mappings could be relied on: the frames are still gdb's, placed by
// the probe's own address in the stack.
func TestLoadUserStackShortCommand(t *testing.T) {
	e := needLoad(t)
	if _, err := exec.LookPath("gdb"); err != nil {
		skipOrFail(t, "TestLoadUserStackShortCommand needs gdb")
	}
	bin := gccBuild(t, e, "chain")
	addr, want := gdbBacktrace(t, bin, "probed")
	off := addr - symbolValue(t, bin, "probed")
	cmd := exec.Command(e.bpfcc, "--load", fmt.Sprintf("probed+%d", off), filepath.Join(stacksDir, "ustack.c"), "-x", bin, "-c", bin)
	cmd.Stdin = strings.NewReader("")
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("bpfcc: %v\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
	}
	out := stdout.String()
	checkUserFrames(t, out, want)
}

// checkUserFrames checks that ustack.c's two stacks (stack id and
// bpf_get_stack buffer) in bpfcc's output begin with gdb's frames.
func checkUserFrames(t *testing.T, out string, want []gdbFrame) {
	t.Helper()
	got := stackSections(out, "calls")
	for _, member := range []string{"user_stack_id", "frames"} {
		frames := got[member]
		if len(frames) < len(want) {
			t.Errorf("%s: %d frames, want at least gdb's %d\n%s", member, len(frames), len(want), out)
			continue
		}
		for i, w := range want {
			if frames[i] != w {
				t.Errorf("%s frame #%d = %v, gdb says %v\n%s", member, i, frames[i], w, out)
			}
		}
	}
}
