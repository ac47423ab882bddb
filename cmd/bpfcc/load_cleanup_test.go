package main

// End-to-end tests of bpfcc --load (load_test.go): a run, however it ends, leaves no program, map, link or uprobe event behind.

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
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

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
