// Package bench measures the loader beside bpftrace: time from process
// start to the uprobe being installed in a running target, peak RSS, and
// time from SIGINT to exit. Run as root:
//
//	go test ./runtime/bench -bench . -benchtime 10x
package bench

import (
	"debug/elf"
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

// setup builds the loader and the target, starts the target calling work()
// every millisecond, and returns the loader path, target path, the target's
// pid, and the runtime address of work in it.
func setup(b *testing.B) (loader, target string, pid int, addr uint64) {
	if os.Geteuid() != 0 {
		b.Skip("needs root")
	}
	dir := b.TempDir()
	loader, target = filepath.Join(dir, "loader"), filepath.Join(dir, "target")
	if out, err := exec.Command("go", "build", "-o", loader, "./loader").CombinedOutput(); err != nil {
		b.Fatalf("build loader: %v\n%s", err, out)
	}
	if out, err := exec.Command("gcc", "-O1", "-g", "-o", target, "../testdata/target.c").CombinedOutput(); err != nil {
		b.Skipf("gcc: %v\n%s", err, out)
	}
	cmd := exec.Command(target, "-1")
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	time.Sleep(20 * time.Millisecond)
	return loader, target, cmd.Process.Pid, funcAddr(b, target, "work", cmd.Process.Pid)
}

// funcAddr finds fn's address in the running process pid.
func funcAddr(b *testing.B, bin, fn string, pid int) uint64 {
	f, err := elf.Open(bin)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	syms, _ := f.Symbols()
	var off uint64
	for _, s := range syms {
		if s.Name != fn {
			continue
		}
		for _, p := range f.Progs {
			if p.Type == elf.PT_LOAD && p.Flags&elf.PF_X != 0 && s.Value >= p.Vaddr && s.Value < p.Vaddr+p.Memsz {
				off = s.Value - p.Vaddr + p.Off
			}
		}
	}
	maps, _ := os.ReadFile(fmt.Sprintf("/proc/%d/maps", pid))
	for _, l := range strings.Split(string(maps), "\n") {
		fs := strings.Fields(l)
		if len(fs) < 6 || fs[5] != bin {
			continue
		}
		lohi := strings.Split(fs[0], "-")
		lo, _ := strconv.ParseUint(lohi[0], 16, 64)
		hi, _ := strconv.ParseUint(lohi[1], 16, 64)
		moff, _ := strconv.ParseUint(fs[2], 16, 64)
		if off >= moff && off < moff+hi-lo {
			return lo + off - moff
		}
	}
	b.Fatalf("%s not found in %d", fn, pid)
	return 0
}

// probed reports whether the uprobe's int3 is at addr in pid.
func probed(mem *os.File, addr uint64) bool {
	var buf [1]byte
	_, err := mem.ReadAt(buf[:], int64(addr))
	return err == nil && buf[0] == 0xcc
}

// measure runs one tool: time until the probe is installed, peak RSS, and
// time from SIGINT until the probe is gone and the tool has exited.
func measure(b *testing.B, argv []string, pid int, addr uint64) (attach time.Duration, rssKB int, exit time.Duration) {
	mem, err := os.Open(fmt.Sprintf("/proc/%d/mem", pid))
	if err != nil {
		b.Fatal(err)
	}
	defer mem.Close()
	cmd := exec.Command(argv[0], argv[1:]...)
	start := time.Now()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	for !probed(mem, addr) {
		if time.Since(start) > 10*time.Second {
			cmd.Process.Kill()
			cmd.Wait()
			b.Fatalf("%v never attached", argv)
		}
		time.Sleep(50 * time.Microsecond)
	}
	attach = time.Since(start)
	time.Sleep(300 * time.Millisecond)
	rssKB = peakRSS(cmd.Process.Pid)
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	t := time.Now()
	// bpftrace can miss a SIGINT that arrives while it finishes attaching:
	// repeat it until the tool exits.
	for {
		cmd.Process.Signal(syscall.SIGINT)
		select {
		case <-done:
			return attach, rssKB, time.Since(t)
		case <-time.After(time.Second):
		}
	}
}

func peakRSS(pid int) int {
	st, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	for _, l := range strings.Split(string(st), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			n, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
			return n
		}
	}
	return 0
}

func report(b *testing.B, argv func() []string, pid int, addr uint64) {
	var attach, exit time.Duration
	var rss int
	for i := 0; i < b.N; i++ {
		a, r, e := measure(b, argv(), pid, addr)
		attach += a
		exit += e
		rss = max(rss, r)
	}
	b.ReportMetric(float64(attach.Microseconds())/1000/float64(b.N), "ms-to-attached")
	b.ReportMetric(float64(exit.Microseconds())/1000/float64(b.N), "ms-sigint-to-exit")
	b.ReportMetric(float64(rss)/1024, "MB-peak-RSS")
	b.ReportMetric(0, "ns/op")
}

func BenchmarkAttach(b *testing.B) {
	loader, target, pid, addr := setup(b)
	b.Run("bpfcc-runtime", func(b *testing.B) {
		report(b, func() []string { return []string{loader, target + ":work"} }, pid, addr)
	})
	b.Run("bpftrace", func(b *testing.B) {
		bt, err := exec.LookPath("bpftrace")
		if err != nil {
			b.Skip("bpftrace is not installed")
		}
		report(b, func() []string { return []string{bt, "-e", "uprobe:" + target + ":work { @[pid] = count(); }"} }, pid, addr)
	})
}
