package tests

// The multi-CU target of the DWARF end-to-end tests.

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bpfcc/bpfcc/dwarfvars"
)

// The multi-CU target: tests/dwarf/multi/m_main.c, m_a.c and m_b.c with the
// header multi.h. Static functions named helper in m_a.c and m_b.c (and
// static globals named tally), globals defined in one CU and used in the
// others, struct rec from the header, and the header's static inline mix()
// inlined into functions of both library CUs.
var dwMultiDir = filepath.Join("dwarf", "multi")

func dwMultiSrcs(t testing.TB) (main string, lib []string) {
	t.Helper()
	abs := func(n string) string {
		p, err := filepath.Abs(filepath.Join(dwMultiDir, n))
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	return abs("m_main.c"), []string{abs("m_a.c"), abs("m_b.c")}
}

// dwMultiTargets builds the multi-CU target: linked into one executable
// with gcc -O0 (non-PIE), gcc -O2 (PIE) and clang-19 -O2 (non-PIE), and as
// a shared library of m_a.c and m_b.c (gcc -O2) that a main program links
// against, traced through the library itself.
func dwMultiTargets(t testing.TB) []dwBuild {
	t.Helper()
	gcc := dwRequireGCC(t)
	dir := t.TempDir()
	mainSrc, libSrcs := dwMultiSrcs(t)
	all := append([]string{mainSrc}, libSrcs...)
	cc := func(c string, args ...string) {
		if b, err := exec.Command(c, args...).CombinedOutput(); err != nil {
			t.Fatalf("%s %s: %v\n%s", c, strings.Join(args, " "), err, b)
		}
	}
	var builds []dwBuild
	exe := func(name, c string, flags ...string) {
		out := filepath.Join(dir, "multi-"+name)
		cc(c, append(append(append([]string{}, flags...), "-o", out), all...)...)
		builds = append(builds, dwBuild{name: "multi-" + name, path: out, multi: true})
	}
	exe("gcc-O0", gcc, "-g", "-O0", "-no-pie")
	exe("gcc-O2-pie", gcc, "-g", "-O2", "-fPIE", "-pie")
	if c := clangPath(); c != "" {
		exe("clang19-O2", c, "-g", "-O2", "-no-pie")
	}
	so := filepath.Join(dir, "libmulti.so")
	cc(gcc, append([]string{"-g", "-O2", "-fPIC", "-shared", "-o", so}, libSrcs...)...)
	prog := filepath.Join(dir, "multi-lib-main")
	cc(gcc, "-g", "-O2", "-o", prog, mainSrc, so, "-Wl,-rpath,"+dir)
	builds = append(builds, dwBuild{name: "multi-lib-gcc-O2", path: so, exe: prog, multi: true})
	return builds
}

// dwMultiProbes are the probes of the multi-CU target; lib leaves out the
// main program's function (the traced binary is the library).
func dwMultiProbes(t testing.TB, b *dwarfvars.Binary, lib bool) []dwProbe {
	m := dwReadMarksFiles(t, filepath.Join(dwMultiDir, "m_main.c"), filepath.Join(dwMultiDir, "m_a.c"),
		filepath.Join(dwMultiDir, "m_b.c"), filepath.Join(dwMultiDir, "multi.h"))
	ps := []dwProbe{
		// Both static helpers: one site in each CU, each with its own tally.
		{"helper", []string{"g_scale", "tally"}},
		{m.file(t, "helper_a"), []string{"tally", "g_scale", "g_hits"}},
		{m.rel(t, "helper@m_b.c", "helper_b"), []string{"tally", "g_scale", "g_hits"}},
		// The header's inline helper, inlined into alpha (m_a.c) and beta (m_b.c).
		{m.file(t, "mix_line"), []string{"r->id", "r->weight", "r->span.hi", "r->span.lo", "g_hits", "g_scale"}},
		{m.rel(t, "alpha", "alpha_loop"), []string{"r->span.lo", "r->id", "g_hits", "g_scale", "tally"}},
		{m.rel(t, "beta", "beta_line"), []string{"r->weight", "r->span.lo", "g_scale", "g_hits", "tally"}},
		{"helper@m_a.c%return", nil},
		{"beta%return", nil},
	}
	if !lib {
		ps = append(ps, dwProbe{m.rel(t, "drive", "drive_line"), []string{"r->id", "r->span.hi", "g_hits", "g_scale"}})
	}
	// FUNC@SRC+OFF: the instruction of m_b.c's helper line.
	if p, err := dwarfvars.ParseProbe(m.file(t, "helper_b")); err == nil {
		if sites, err := b.Resolve(p); err == nil && len(sites) > 0 {
			ps = append(ps, dwProbe{sites[0].OffsetSpec(), []string{"tally"}})
		}
	}
	return ps
}
