package tests

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

const bpffsRoot = "/sys/fs/bpf"

// bpftoolPath is bpftool's path, or "" when it is not installed.
var bpftoolPath = sync.OnceValue(func() string {
	for _, name := range []string{"bpftool", "/usr/sbin/bpftool", "/sbin/bpftool"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
})

var bpffsOnce sync.Once
var bpffsErr error

// ensureBPFFS mounts a bpf file system on /sys/fs/bpf if none is there.
func ensureBPFFS() error {
	bpffsOnce.Do(func() {
		var st unix.Statfs_t
		if err := unix.Statfs(bpffsRoot, &st); err == nil && st.Type == unix.BPF_FS_MAGIC {
			return
		}
		if err := os.MkdirAll(bpffsRoot, 0o755); err != nil {
			bpffsErr = err
			return
		}
		if err := unix.Mount("bpf", bpffsRoot, "bpf", 0, ""); err != nil {
			bpffsErr = fmt.Errorf("mount bpffs on %s: %w", bpffsRoot, err)
		}
	})
	return bpffsErr
}

// bpftoolLoadAll loads obj with `bpftool prog loadall`, pinning its programs
// under /sys/fs/bpf/bpfcc_test_<name>, and removes the pins again.
func bpftoolLoadAll(t testing.TB, bpftool, name string, obj []byte) error {
	t.Helper()
	if err := ensureBPFFS(); err != nil {
		return err
	}
	path := filepath.Join(t.TempDir(), name+".o")
	if err := os.WriteFile(path, obj, 0o644); err != nil {
		return err
	}
	pin := filepath.Join(bpffsRoot, "bpfcc_test_"+name)
	_ = os.RemoveAll(pin) // left over from an interrupted run
	defer func() {
		if err := os.RemoveAll(pin); err != nil {
			t.Errorf("remove pins: %v", err)
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, bpftool, "prog", "loadall", path, pin).CombinedOutput()
	if err != nil {
		return fmt.Errorf("bpftool prog loadall: %v\n%s", err, lastLines(string(out), 40))
	}
	ents, err := os.ReadDir(pin)
	if err != nil {
		return fmt.Errorf("bpftool prog loadall pinned nothing: %v", err)
	}
	if len(ents) == 0 {
		return fmt.Errorf("bpftool prog loadall pinned no program")
	}
	return nil
}

// lastLines keeps the end of a long tool output.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = append([]string{"..."}, lines[len(lines)-n:]...)
	}
	return strings.Join(lines, "\n")
}

// TestLibbpfLoad loads every bpfcc object with libbpf through bpftool.
func TestLibbpfLoad(t *testing.T) {
	bpftool := bpftoolPath()
	if bpftool == "" {
		skipOrFail(t, "bpftool not installed (apt-get install bpftool)")
	}
	requireKernel(t)
	for _, p := range loadCorpus(t) {
		t.Run(p.Name, func(t *testing.T) {
			res, err := compileBPFCC(p)
			if err != nil {
				t.Fatal(err)
			}
			if p.NoLibbpf != "" {
				t.Skipf("BPFTOOL: %s", p.NoLibbpf)
			}
			err = bpftoolLoadAll(t, bpftool, p.Name, res.Object)
			if p.XFail != "" {
				if err == nil {
					t.Errorf("%s loads now: remove its BPFCC-XFAIL (%s)", p.Path, p.XFail)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
		})
	}
}
