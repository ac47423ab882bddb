package tests

// LTO binaries and shared libraries (issue 13). gcc -flto splits the
// DWARF: the code's DIEs live in a link-time unit ("<artificial>") and
// refer across units to the source units' declarations, and the static
// helpers of one name become helper.lto_priv.0 and helper.lto_priv.1. The
// probes name functions as the source does (helper, helper@m_b.c, beta,
// whose code is beta.isra.0) and every bound value must equal gdb's.

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// dwLTOTargets builds the single- and multi-unit targets with gcc -flto,
// linked whole, and the multi-unit library as an LTO shared object.
func dwLTOTargets(t testing.TB) []dwBuild {
	t.Helper()
	gcc := dwRequireGCC(t)
	dir := t.TempDir()
	cc := func(args ...string) {
		if b, err := exec.Command(gcc, args...).CombinedOutput(); err != nil {
			t.Fatalf("gcc %s: %v\n%s", strings.Join(args, " "), err, b)
		}
	}
	single, err := filepath.Abs(dwTargetSrc)
	if err != nil {
		t.Fatal(err)
	}
	mainSrc, libSrcs := dwMultiSrcs(t)
	var builds []dwBuild
	out := filepath.Join(dir, "lto-gcc-O2")
	cc("-g", "-O2", "-flto", "-no-pie", "-o", out, single)
	builds = append(builds, dwBuild{name: "lto-gcc-O2", path: out})
	for _, v := range []struct{ name, opt string }{{"multi-lto-gcc-O2", "-O2"}, {"multi-lto-gcc-O1", "-O1"}} {
		out := filepath.Join(dir, v.name)
		cc(append([]string{"-g", v.opt, "-flto", "-o", out, mainSrc}, libSrcs...)...)
		builds = append(builds, dwBuild{name: v.name, path: out, multi: true})
	}
	so := filepath.Join(dir, "libmulti-lto.so")
	cc(append([]string{"-g", "-O2", "-flto", "-fPIC", "-shared", "-o", so}, libSrcs...)...)
	prog := filepath.Join(dir, "multi-lto-lib-main")
	cc("-g", "-O2", "-o", prog, mainSrc, so, "-Wl,-rpath,"+dir)
	builds = append(builds, dwBuild{name: "multi-lto-lib-gcc-O2", path: so, exe: prog, multi: true})
	return builds
}

func TestDWARFLTO(t *testing.T) {
	dwRequireE2E(t)
	for _, bld := range dwLTOTargets(t) {
		t.Run(bld.name, func(t *testing.T) {
			f := dwCheckBuild(t, bld)
			t.Logf("%s: %d distinct (binary, site, variable) triples, %d matched gdb; %d comparisons, %d matched, %d unverified, %d gaps, %d agreed refusals",
				bld.name, f.unique, f.uniqueMatched, f.compared, f.matched, f.unverified, f.gaps, f.refusedOK)
			if f.unique == 0 {
				t.Errorf("nothing compared")
			}
		})
	}
}
