package realworld

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// compileTimeout bounds one compile. It is far above any real compile
// (clang's slowest file here takes seconds), so it only turns a hang into
// a verdict; no passing result depends on it.
const compileTimeout = 5 * time.Minute

// compileResult is what one compiler made of one file.
type compileResult struct {
	OK bool `json:"ok"`
	// Status is the exit status; -1 when the compile was killed at the
	// timeout (a hang).
	Status     int     `json:"status"`
	FirstError string  `json:"first_error,omitempty"`
	CPUSeconds float64 `json:"cpu_seconds"`
	MaxRSSKB   int64   `json:"max_rss_kb"`
	Object     string  `json:"-"`
}

// clangFlags are the selftests' BPF_CFLAGS for clang-19, with its system
// include directories after the program's own as the selftests add them.
func clangFlags(f sourceFile, out string) []string {
	args := []string{"-O2", "-g", "-target", "bpf", "-mcpu=v3", "-Wno-compare-distinct-pointer-types"}
	args = append(args, f.Args...)
	args = append(args, "-idirafter", "/usr/lib/llvm-19/lib/clang/19/include",
		"-idirafter", "/usr/local/include", "-idirafter", "/usr/include/x86_64-linux-gnu",
		"-idirafter", "/usr/include", "-c", f.Path, "-o", out)
	return args
}

// bpfccFlags are the same flags for bpfcc, whose default search path
// already ends in the system directories.
func bpfccFlags(f sourceFile, out string) []string {
	args := []string{"-O2", "-g", "-mcpu=v3"}
	args = append(args, f.Args...)
	return append(args, "-c", f.Path, "-o", out)
}

// run runs a compiler and measures its CPU time and peak memory.
func run(bin string, args []string, obj string) compileResult {
	ctx, cancel := context.WithTimeout(context.Background(), compileTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	r := compileResult{Object: obj}
	if ps := cmd.ProcessState; ps != nil {
		r.CPUSeconds = (ps.UserTime() + ps.SystemTime()).Seconds()
		if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
			r.MaxRSSKB = ru.Maxrss
		}
		r.Status = ps.ExitCode()
	}
	switch {
	case ctx.Err() != nil:
		r.Status = -1
		r.FirstError = "timeout: no result after " + compileTimeout.String()
	case err != nil:
		r.FirstError = firstDiagnostic(stderr.String())
		if r.FirstError == "" {
			r.FirstError = err.Error()
		}
	default:
		r.OK = true
	}
	return r
}

// firstDiagnostic is the first error line a compiler printed.
func firstDiagnostic(stderr string) string {
	lines := strings.Split(stderr, "\n")
	for _, l := range lines {
		if strings.Contains(l, "error:") || strings.Contains(l, "panic") {
			return strings.TrimSpace(l)
		}
	}
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			return strings.TrimSpace(l)
		}
	}
	return ""
}

// compileClang compiles with clang-19, reusing an earlier run's result for
// the same compiler, flags and source: clang is the oracle, not what is
// under test, and this halves the suite's time on a second run.
func compileClang(clang, clangVersion string, tr *tree, f sourceFile) compileResult {
	src, err := os.ReadFile(f.Path)
	if err != nil {
		return compileResult{FirstError: err.Error(), Status: 1}
	}
	h := sha256.New()
	h.Write([]byte(clangVersion))
	h.Write([]byte(strings.Join(clangFlags(f, ""), "\x00")))
	h.Write(src)
	key := hex.EncodeToString(h.Sum(nil))[:32]
	obj := filepath.Join(tr.Cache, key+".o")
	meta := filepath.Join(tr.Cache, key+".json")
	var r compileResult
	if b, err := os.ReadFile(meta); err == nil && json.Unmarshal(b, &r) == nil {
		if _, err := os.Stat(obj); err == nil || !r.OK {
			r.Object = obj
			return r
		}
	}
	tmp := obj + ".tmp" + randomSuffix()
	r = run(clang, clangFlags(f, tmp), obj)
	if r.Status == -1 {
		os.Remove(tmp)
		return r // a timeout is not cached: it may be the machine
	}
	if r.OK {
		if err := os.Rename(tmp, obj); err != nil {
			return compileResult{FirstError: err.Error(), Status: 1}
		}
	}
	os.Remove(tmp)
	if b, err := json.Marshal(r); err == nil {
		atomicWrite(meta, b)
	}
	return r
}

func atomicWrite(path string, b []byte) {
	tmp := path + ".tmp" + randomSuffix()
	if os.WriteFile(tmp, b, 0o644) == nil {
		os.Rename(tmp, path)
	}
}

func randomSuffix() string {
	var b [6]byte
	f, err := os.Open("/dev/urandom")
	if err == nil {
		f.Read(b[:])
		f.Close()
	}
	return hex.EncodeToString(b[:])
}

// clangIdentity returns clang's version line, which keys the cache.
func clangIdentity(clang string) (string, error) {
	out, err := exec.Command(clang, "--version").Output()
	if err != nil {
		return "", err
	}
	line, _, _ := strings.Cut(string(out), "\n")
	if line == "" {
		return "", errors.New("clang --version printed nothing")
	}
	return line, nil
}
