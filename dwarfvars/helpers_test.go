package dwarfvars

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// target is one build of testdata/target.c.
type target struct {
	cc, opt string
	pie     bool
}

func (tg target) name() string {
	n := fmt.Sprintf("%s%s", filepath.Base(tg.cc), tg.opt)
	if !tg.pie {
		n += "-nopie"
	}
	return n
}

const clang = "/usr/bin/clang-19"

// targets lists the builds the tests run over: gcc -O0..-O3 (PIE and
// not), and clang-19 when installed.
func targets(t *testing.T) []target {
	ts := []target{{"gcc", "-O0", true}, {"gcc", "-O1", true}, {"gcc", "-O2", true}, {"gcc", "-O3", true},
		{"gcc", "-O2", false}, {"gcc", "-O0", false}}
	if _, err := os.Stat(clang); err == nil {
		ts = append(ts, target{clang, "-O0", true}, target{clang, "-O1", true}, target{clang, "-O2", true}, target{clang, "-O3", true})
	} else {
		t.Logf("clang-19 not installed: testing gcc builds only")
	}
	return ts
}

var (
	buildMu    sync.Mutex
	buildCache = map[string]string{}
	buildDir   string
)

// build compiles testdata/target.c (cached per process).
func build(t *testing.T, tg target) string {
	t.Helper()
	buildMu.Lock()
	defer buildMu.Unlock()
	if p, ok := buildCache[tg.name()]; ok {
		return p
	}
	if _, err := exec.LookPath(tg.cc); err != nil {
		t.Skipf("%s not installed", tg.cc)
	}
	if buildDir == "" {
		d, err := os.MkdirTemp("", "dwarfvars-test")
		if err != nil {
			t.Fatal(err)
		}
		buildDir = d
	}
	src, err := filepath.Abs("testdata/target.c")
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(buildDir, tg.name())
	args := []string{"-g", tg.opt, "-o", out, src}
	if tg.pie {
		args = append(args, "-fPIE", "-pie")
	} else {
		args = append(args, "-fno-PIE", "-no-pie")
	}
	cmd := exec.Command(tg.cc, args...)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s %v: %v\n%s", tg.cc, args, err, b)
	}
	buildCache[tg.name()] = out
	return out
}

func TestMain(m *testing.M) {
	code := m.Run()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	os.Exit(code)
}

func open(t *testing.T, path string) *Binary {
	t.Helper()
	b, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

// nmFuncs returns function symbol addresses as nm prints them.
func nmFuncs(t *testing.T, path string) map[string]uint64 {
	t.Helper()
	out, err := exec.Command("nm", path).Output()
	if err != nil {
		t.Skipf("nm: %v", err)
	}
	m := map[string]uint64{}
	for _, l := range strings.Split(string(out), "\n") {
		f := strings.Fields(l)
		if len(f) == 3 && (f[1] == "T" || f[1] == "t") {
			v, _ := strconv.ParseUint(f[0], 16, 64)
			m[f[2]] = v
		}
	}
	return m
}

// lineOf returns the 1-based line of the first line of testdata/target.c
// containing marker.
func lineOf(t *testing.T, marker string) int {
	t.Helper()
	data, err := os.ReadFile("testdata/target.c")
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(data), "\n") {
		if strings.Contains(l, marker) {
			return i + 1
		}
	}
	t.Fatalf("marker %q not in target.c", marker)
	return 0
}

func mustProbe(t *testing.T, s string) Probe {
	t.Helper()
	p, err := ParseProbe(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func mustExpr(t *testing.T, s string) Expr {
	t.Helper()
	e, err := ParseExpr(s)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func itoa(n int) string { return strconv.Itoa(n) }

func fmtSscanHex(s string, v *uint64) (int, error) {
	x, err := strconv.ParseUint(s, 16, 64)
	*v = x
	return 1, err
}

func run(t *testing.T, name string, args ...string) {
	t.Helper()
	if out, err := exec.Command(name, args...).CombinedOutput(); err != nil {
		t.Fatalf("%s %v: %v\n%s", name, args, err, out)
	}
}

func hexString(b []byte) string { return fmt.Sprintf("%x", b) }
