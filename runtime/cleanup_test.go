package runtime

import (
	"bufio"
	"context"
	"debug/elf"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cilium/ebpf"
	"github.com/cilium/ebpf/link"
)

// helperEnv makes the test binary act as a loader (see TestMain): it runs
// countSpec on the binary and PID in the variable's value "BIN:PID".
const helperEnv = "BPFCC_RUNTIME_HELPER"

func TestMain(m *testing.M) {
	if v := os.Getenv(helperEnv); v != "" {
		os.Exit(helperMain(v))
	}
	os.Exit(m.Run())
}

func helperMain(v string) int {
	i := strings.LastIndexByte(v, ':')
	pid, _ := strconv.Atoi(v[i+1:])
	err := Run(context.Background(), countSpec("uprobe/"+v[:i]+":work"), Options{
		PID:   pid,
		Ready: func() { fmt.Println("READY") },
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, Describe(err))
		return 1
	}
	return 0
}

// objectIDs lists the programs, maps and links in the kernel: programs and
// maps with their names, links with the program they attach.
func objectIDs(t *testing.T) map[string]string {
	t.Helper()
	ids := map[string]string{}
	for id := ebpf.ProgramID(0); ; {
		next, err := ebpf.ProgramGetNextID(id)
		if err != nil {
			break
		}
		name := ""
		if p, err := ebpf.NewProgramFromID(next); err == nil {
			if info, err := p.Info(); err == nil {
				name = info.Name
			}
			p.Close()
		}
		ids[fmt.Sprint("prog ", next)], id = name, next
	}
	for id := ebpf.MapID(0); ; {
		next, err := ebpf.MapGetNextID(id)
		if err != nil {
			break
		}
		name := ""
		if m, err := ebpf.NewMapFromID(next); err == nil {
			if info, err := m.Info(); err == nil {
				name = info.Name
			}
			m.Close()
		}
		ids[fmt.Sprint("map ", next)], id = name, next
	}
	it := new(link.Iterator)
	for it.Next() {
		prog := ""
		if info, err := it.Link.Info(); err == nil {
			prog = fmt.Sprint("prog ", info.Program)
		}
		ids[fmt.Sprint("link ", it.ID)] = prog
	}
	it.Close()
	return ids
}

// loaderObjects lists the objects in now and not in before that the
// loader made: its programs and maps by name (the count program and its
// map, the process filter's), and the links of those programs. Other
// objects appear too when other processes load programs meanwhile.
func loaderObjects(before, now map[string]string) map[string]bool {
	names := map[string]bool{"count": true, "calls": true, forkProg: true, exitProg: true, pidSetMap: true, pidStatsMap: true}
	ours := map[string]bool{}
	for id, name := range now {
		if _, old := before[id]; !old && !strings.HasPrefix(id, "link ") && names[name] {
			ours[id] = true
		}
	}
	for id, prog := range now {
		if _, old := before[id]; !old && strings.HasPrefix(id, "link ") && ours[prog] {
			ours[id] = true
		}
	}
	return ours
}

// probedByte reads the first byte of function fn in the running process pid:
// 0xcc while a uprobe is installed there.
func probedByte(t *testing.T, bin, fn string, pid int) byte {
	t.Helper()
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	syms, _ := f.Symbols()
	var off uint64
	for _, s := range syms {
		if s.Name == fn {
			for _, p := range f.Progs {
				if p.Type == elf.PT_LOAD && p.Flags&elf.PF_X != 0 && s.Value >= p.Vaddr && s.Value < p.Vaddr+p.Memsz {
					off = s.Value - p.Vaddr + p.Off
				}
			}
		}
	}
	maps, err := os.ReadFile(fmt.Sprintf("/proc/%d/maps", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(maps), "\n") {
		fs := strings.Fields(l)
		if len(fs) < 6 || fs[5] != bin {
			continue
		}
		lohi := strings.Split(fs[0], "-")
		lo, _ := strconv.ParseUint(lohi[0], 16, 64)
		hi, _ := strconv.ParseUint(lohi[1], 16, 64)
		moff, _ := strconv.ParseUint(fs[2], 16, 64)
		if off >= moff && off < moff+(hi-lo) {
			mem, err := os.Open(fmt.Sprintf("/proc/%d/mem", pid))
			if err != nil {
				t.Fatal(err)
			}
			defer mem.Close()
			b := make([]byte, 1)
			if _, err := mem.ReadAt(b, int64(lo+off-moff)); err != nil {
				t.Fatal(err)
			}
			return b[0]
		}
	}
	t.Fatalf("%s not mapped in %d", fn, pid)
	return 0
}

func readUprobeEvents() string {
	for _, d := range tracefsDirs {
		if b, err := os.ReadFile(d + "/uprobe_events"); err == nil {
			return string(b)
		}
	}
	return ""
}

func TestCleanupAfterSignal(t *testing.T) {
	needKernel(t)
	bin := buildTarget(t)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGKILL} {
		t.Run(sig.String(), func(t *testing.T) {
			target := exec.Command(bin, "-1")
			if err := target.Start(); err != nil {
				t.Fatal(err)
			}
			defer func() { target.Process.Kill(); target.Wait() }()
			time.Sleep(20 * time.Millisecond)
			before := objectIDs(t)
			events := readUprobeEvents()
			if b := probedByte(t, bin, "work", target.Process.Pid); b == 0xcc {
				t.Fatal("work is probed before the loader runs")
			}

			loader := exec.Command(os.Args[0], "-test.run=^$")
			loader.Env = append(os.Environ(), fmt.Sprintf("%s=%s:%d", helperEnv, bin, target.Process.Pid))
			stdout, _ := loader.StdoutPipe()
			var stderr strings.Builder
			loader.Stderr = &stderr
			if err := loader.Start(); err != nil {
				t.Fatal(err)
			}
			sc := bufio.NewScanner(stdout)
			if !sc.Scan() || sc.Text() != "READY" {
				loader.Wait()
				t.Fatalf("loader did not attach: %q %s", sc.Text(), stderr.String())
			}
			ours := loaderObjects(before, objectIDs(t))
			if len(ours) < 3 { // program, map, perf-event link
				t.Errorf("loader created %v, want a program, a map and a link", ours)
			}
			if b := probedByte(t, bin, "work", target.Process.Pid); b != 0xcc {
				t.Errorf("work starts with %#x while attached, want the uprobe's int3", b)
			}
			time.Sleep(50 * time.Millisecond)
			loader.Process.Signal(sig)
			var rest strings.Builder
			for sc.Scan() {
				rest.WriteString(sc.Text() + "\n")
			}
			err := loader.Wait()
			var ee *exec.ExitError
			switch {
			case sig == syscall.SIGKILL:
				if !errors.As(err, &ee) {
					t.Errorf("loader exit: %v", err)
				}
			case err != nil:
				t.Errorf("loader exit after %v: %v\n%s", sig, err, stderr.String())
			case !strings.Contains(rest.String(), "calls:"):
				t.Errorf("no table printed after %v:\n%s", sig, rest.String())
			}
			// The kernel frees objects asynchronously (RCU), later on a
			// loaded machine: poll, with a deadline far above any real
			// delay, so that only a leak fails.
			deadline := time.Now().Add(time.Minute)
			var left []string
			var probed bool
			for {
				left = left[:0]
				now := objectIDs(t)
				for id := range ours {
					if _, ok := now[id]; ok {
						left = append(left, id)
					}
				}
				probed = probedByte(t, bin, "work", target.Process.Pid) == 0xcc
				if (len(left) == 0 && !probed) || time.Now().After(deadline) {
					break
				}
				time.Sleep(20 * time.Millisecond)
			}
			if len(left) > 0 {
				t.Errorf("left behind after %v: %v", sig, left)
			}
			if probed {
				t.Errorf("uprobe still installed in the target after %v", sig)
			}
			if e := readUprobeEvents(); e != events {
				t.Errorf("uprobe_events changed: %q -> %q", events, e)
			}
		})
	}
}
