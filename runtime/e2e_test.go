package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/cilium/ebpf"
	"github.com/cilium/ebpf/asm"
	"github.com/cilium/ebpf/btf"
)

// runSpec runs spec against the target with Command and returns stdout.
func runSpec(t *testing.T, spec interface{}, opts Options) (string, string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	opts.Stdout, opts.Stderr = &out, &errb
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	err := Run(ctx, spec.(specT), opts)
	return out.String(), errb.String(), err
}

func TestCountTable(t *testing.T) {
	needKernel(t)
	bin := buildTarget(t)
	out, stderr, err := runSpec(t, countSpec("uprobe/"+bin+":work"), Options{Command: []string{bin, "100"}})
	if err != nil {
		t.Fatalf("Run: %v\n%s", Describe(err), stderr)
	}
	// One process (the command, thanks to the PID filter) called work 100 times.
	m := regexp.MustCompile(`(?m)^calls:\n +pid +value\n +(\d+) +(\d+)\n$`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("unexpected table:\n%s", out)
	}
	if m[2] != "100" {
		t.Errorf("count = %s, want 100", m[2])
	}
}

func TestCommandString(t *testing.T) {
	needKernel(t)
	bin := buildTarget(t)
	out, _, err := runSpec(t, countSpec("uprobe"), Options{Probe: bin + ":work", Command: []string{bin + " 7"}})
	if err != nil {
		t.Fatal(Describe(err))
	}
	if !regexp.MustCompile(`(?m)^ +\d+ +7$`).MatchString(out) {
		t.Fatalf("want a count of 7:\n%s", out)
	}
}

func TestLog2Histogram(t *testing.T) {
	needKernel(t)
	bin := buildTarget(t)
	out, stderr, err := runSpec(t, histSpecFor("uprobe/"+bin+":work"), Options{Command: []string{bin, "100"}})
	if err != nil {
		t.Fatalf("Run: %v\n%s", Describe(err), stderr)
	}
	// work(0..99): 0 → [0]; 1 → [1]; 2,3 → [2, 4); ... 64..99 → [64, 128).
	want := map[string]int{"[0]": 1, "[1]": 1, "[2, 4)": 2, "[4, 8)": 4, "[8, 16)": 8, "[16, 32)": 16, "[32, 64)": 32, "[64, 128)": 36}
	got := map[string]int{}
	for _, m := range regexp.MustCompile(`(?m)^(\[[^\]\)]*[\]\)]) +(\d+) \|@*\s*\|$`).FindAllStringSubmatch(out, -1) {
		fmt.Sscan(m[2], new(int))
		var n int
		fmt.Sscan(m[2], &n)
		got[m[1]] = n
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("buckets = %v, want %v\n%s", got, want, out)
	}
	if !strings.HasPrefix(out, "work_hist:\n") {
		t.Errorf("missing header:\n%s", out)
	}
}

func TestEvents(t *testing.T) {
	needKernel(t)
	bin := buildTarget(t)
	for _, ring := range []bool{false, true} {
		t.Run(fmt.Sprintf("ring=%v", ring), func(t *testing.T) {
			spec := eventSpec("uprobe/"+bin+":work", ring)
			out, stderr, err := runSpec(t, spec, Options{Command: []string{bin, "5"}, OutputTypes: map[string]typeT{"events": eventType}})
			if err != nil {
				t.Fatalf("Run: %v\n%s", Describe(err), stderr)
			}
			lines := strings.Split(strings.TrimSpace(out), "\n")
			if len(lines) != 5 {
				t.Fatalf("want 5 events, got:\n%s", out)
			}
			for i, l := range lines {
				m := regexp.MustCompile(`^pid=(\d+) n=(-?\d+) comm=(\S+)$`).FindStringSubmatch(l)
				if m == nil || m[2] != fmt.Sprint(i) || m[3] != "target" {
					t.Errorf("event %d = %q, want pid=PID n=%d comm=target", i, l, i)
				}
			}
		})
	}
}

func TestEventsJSON(t *testing.T) {
	needKernel(t)
	bin := buildTarget(t)
	spec := eventSpec("uprobe/"+bin+":work", true)
	spec.Types = nil
	// No OutputTypes: the struct named after the map... is absent, so use the tag.
	spec.Maps["events"].Tags = []string{EventTag + "struct event"}
	spec.Types = btfSpecWith(t, eventType)
	out, _, err := runSpec(t, spec, Options{Command: []string{bin, "3"}, JSON: true})
	if err != nil {
		t.Fatal(Describe(err))
	}
	dec := json.NewDecoder(strings.NewReader(out))
	for i := 0; i < 3; i++ {
		var ev struct {
			Type, Map string
			Data      struct {
				Pid  uint32
				N    int
				Comm string
			}
		}
		if err := dec.Decode(&ev); err != nil {
			t.Fatalf("event %d: %v\n%s", i, err, out)
		}
		if ev.Type != "event" || ev.Map != "events" || ev.Data.N != i || ev.Data.Comm != "target" || ev.Data.Pid == 0 {
			t.Errorf("event %d = %+v", i, ev)
		}
	}
}

func TestPrintk(t *testing.T) {
	needKernel(t)
	bin := buildTarget(t)
	out, stderr, err := runSpec(t, printkSpec("uprobe/"+bin+":work"), Options{Command: []string{bin, "4"}})
	if err != nil {
		t.Fatalf("Run: %v\n%s", Describe(err), stderr)
	}
	if out != "n=0\nn=1\nn=2\nn=3\n" {
		t.Fatalf("printk lines = %q", out)
	}
}

func TestDuration(t *testing.T) {
	needKernel(t)
	bin := buildTarget(t)
	start := time.Now()
	out, _, err := runSpec(t, countSpec("uprobe/"+bin+":work"), Options{Duration: 300 * time.Millisecond, Command: []string{bin, "-1"}})
	if err != nil {
		t.Fatal(Describe(err))
	}
	// The upper bound tells "ended at the duration" from "ran on with the
	// endless command" (the 20 s context), whatever the machine's load.
	if d := time.Since(start); d < 300*time.Millisecond || d > 15*time.Second {
		t.Errorf("run took %v, want about 300ms", d)
	}
	m := regexp.MustCompile(`(?m)^ +\d+ +(\d+)$`).FindStringSubmatch(out)
	var n int
	if m != nil {
		fmt.Sscan(m[1], &n)
	}
	// About 300 unloaded; a busy machine runs the loop less often.
	if n < 1 {
		t.Errorf("calls in 300ms of a 1ms loop = %d, want about 300\n%s", n, out)
	}
}

func TestCommandMissing(t *testing.T) {
	needKernel(t)
	bin := buildTarget(t)
	_, _, err := runSpec(t, countSpec("uprobe/"+bin+":work"), Options{Command: []string{"/nonexistent/cmd"}})
	if !errors.Is(err, ErrCommand) {
		t.Fatalf("err = %v, want ErrCommand", err)
	}
}

func TestMissingSymbolAndBinary(t *testing.T) {
	needKernel(t)
	bin := buildTarget(t)
	_, _, err := runSpec(t, countSpec("uprobe/"+bin+":no_such_func"), Options{Duration: time.Millisecond})
	if !errors.Is(err, ErrAttach) || !errors.Is(err, ErrNoSymbol) || !strings.Contains(Describe(err), "hint: check the function name") {
		t.Errorf("missing symbol: %v", Describe(err))
	}
	// Misspelled in the section as in the PROBE argument: checked before
	// anything is loaded, with the names it may have meant (two letters
	// swapped are one edit).
	_, _, err = runSpec(t, countSpec("uprobe/"+bin+":wrok"), Options{Duration: time.Millisecond})
	if !errors.Is(err, ErrNoSymbol) || !strings.Contains(Describe(err), "did you mean work") {
		t.Errorf("misspelled symbol: %v", Describe(err))
	}
	_, _, err = runSpec(t, countSpec("uprobe//no/such/bin:work"), Options{Duration: time.Millisecond})
	if !errors.Is(err, ErrAttach) || !errors.Is(err, ErrNoBinary) {
		t.Errorf("missing binary: %v", Describe(err))
	}
}

func TestKprobeWithoutKprobes(t *testing.T) {
	needKernel(t)
	if _, err := os.Stat(pmuDir + "/kprobe"); err == nil {
		t.Skip("this kernel has kprobes")
	}
	_, _, err := runSpec(t, countSpec("kprobe/do_nanosleep"), Options{Duration: time.Millisecond})
	if !errors.Is(err, ErrAttach) || !errors.Is(err, ErrNoKprobes) || !strings.Contains(Describe(err), "CONFIG_KPROBES") {
		t.Fatalf("err = %v", Describe(err))
	}
}

func TestVerifierRejection(t *testing.T) {
	needKernel(t)
	bin := buildTarget(t)
	src := t.TempDir() + "/prog.c"
	os.WriteFile(src, []byte("l1\nl2\nl3\nl4\n\tkey = 0;\n\tv = bpf_map_lookup_elem(&calls, &key);\n\treturn *v;\n}\n"), 0o644)
	_, _, err := runSpec(t, rejectedSpec("uprobe/"+bin+":work", src), Options{Duration: time.Millisecond})
	var r *VerifierReport
	if !errors.As(err, &r) || !errors.Is(err, ErrLoad) || !errors.Is(err, ErrVerifier) {
		t.Fatalf("err = %v, want a *VerifierReport", err)
	}
	if r.Program != "bad" || r.Line != 7 || r.File != src || r.SourceLine != "\treturn *v;" || r.Insn != 6 {
		t.Errorf("report = %+v", r)
	}
	if !strings.Contains(r.Reason, "invalid mem access") {
		t.Errorf("reason = %q", r.Reason)
	}
	if !strings.Contains(err.Error(), "     7 | \treturn *v;") {
		t.Errorf("message lacks the source line:\n%s", err)
	}
}

// A hash map that filled up is named at exit, with its size: updates of
// new keys failed from then on, so the table misses what came after
// (bpftrace's maps are larger by default; neither warned).
func TestFullMapNote(t *testing.T) {
	needKernel(t)
	bin := buildTarget(t)
	key := &btf.Struct{Name: "key", Size: 4, Members: []btf.Member{{Name: "n", Type: u32}}}
	spec := &ebpf.CollectionSpec{
		Maps: map[string]*ebpf.MapSpec{
			"calls": {Name: "calls", Type: ebpf.Hash, KeySize: 4, ValueSize: 8, MaxEntries: 4, Key: key, Value: u64},
		},
		Programs: map[string]*ebpf.ProgramSpec{
			"count": program("count", "uprobe/"+bin+":work", asm.Instructions{
				asm.LoadMem(asm.R0, asm.R1, 112, asm.DWord), // di: work's n
				asm.StoreMem(asm.RFP, -4, asm.R0, asm.Word),
			}, increment("calls", -4, "c")),
		},
	}
	for calls, full := range map[string]bool{"10": true, "3": false} {
		_, stderr, err := runSpec(t, spec, Options{Command: []string{bin, calls}})
		if err != nil {
			t.Fatalf("Run: %v\n%s", Describe(err), stderr)
		}
		if got := strings.Contains(stderr, "map calls is full (4 of 4 entries)"); got != full {
			t.Errorf("%s calls: full-map note %v, want %v; stderr:\n%s", calls, got, full, stderr)
		}
	}
}
