package runtime

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestNonRoot runs the loader without privileges (as user nobody, which has
// no capabilities) and checks the error tells the user what to do.
func TestNonRoot(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to switch to an unprivileged user")
	}
	dir, err := os.MkdirTemp("", "bpfcc-nonroot")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	os.Chmod(dir, 0o755)
	self := filepath.Join(dir, "runtime.test")
	if err := copyFile(os.Args[0], self); err != nil {
		t.Fatal(err)
	}
	// A binary with the probed function: its symbol is checked before
	// anything is loaded.
	target := filepath.Join(dir, "target")
	if err := copyFile(buildTarget(t), target); err != nil {
		t.Fatal(err)
	}
	os.Chmod(target, 0o755)
	cmd := exec.Command(self, "-test.run=^$")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), helperEnv+"="+target+":0")
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("unprivileged loader succeeded:\n%s", out)
	}
	s := string(out)
	if !strings.Contains(s, "load failed") || !strings.Contains(s, "permission denied") || !strings.Contains(s, "CAP_BPF and CAP_PERFMON") {
		t.Errorf("unprivileged error lacks the hint:\n%s", s)
	}
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
