package tests

// LTO binaries and shared libraries (issue 13).
//
// gcc -flto splits the
// DWARF: the code's DIEs live in a link-time unit ("<artificial>") and
// refer across units to the source units' declarations, and the static
// helpers of one name become helper.lto_priv.0 and helper.lto_priv.1. The
// probes name functions as the source does (helper, helper@m_b.c, beta,
// whose code is beta.isra.0) and every bound value must equal gdb's.

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bpfcc/bpfcc/dwarfvars"
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
			if f.unique == 0 || f.gaps > 0 {
				t.Errorf("%d triples compared, %d refused where gdb prints a value", f.unique, f.gaps)
			}
		})
	}
}

// dwLibTargets builds the multi-unit library as distributions ship one:
// gcc -O2, stripped (strip --strip-unneeded: no .symtab, so its static
// helpers have no symbol) with its DWARF under root/.build-id; and with
// clang-19 -O2 unstripped. A main program links each; the library is the
// traced binary.
func dwLibTargets(t testing.TB) (builds []dwBuild, root string) {
	t.Helper()
	gcc := dwRequireGCC(t)
	for _, tool := range []string{"objcopy", "strip"} {
		if _, err := exec.LookPath(tool); err != nil {
			skipOrFail(t, "%s not installed: needed to split debug info", tool)
		}
	}
	dir := t.TempDir()
	root = filepath.Join(dir, "debugroot")
	run := func(name string, args ...string) {
		if b, err := exec.Command(name, args...).CombinedOutput(); err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, b)
		}
	}
	mainSrc, libSrcs := dwMultiSrcs(t)
	lib := func(name, cc string, split bool) {
		d := filepath.Join(dir, name)
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		so := filepath.Join(d, "libmulti.so")
		run(cc, append([]string{"-g", "-O2", "-fPIC", "-shared", "-Wl,--build-id", "-o", so}, libSrcs...)...)
		prog := filepath.Join(d, "main")
		run(gcc, "-g", "-O2", "-o", prog, mainSrc, so, "-Wl,-rpath,"+d)
		var ex []string
		if split {
			dbg := so + ".debug"
			run("objcopy", "--only-keep-debug", so, dbg)
			run("strip", "--strip-unneeded", so)
			id := dwBuildID(t, so)
			bd := filepath.Join(root, ".build-id", id[:2])
			run("mkdir", "-p", bd)
			run("mv", dbg, filepath.Join(bd, id[2:]+".debug"))
			ex = []string{"set debug-file-directory " + root}
		}
		builds = append(builds, dwBuild{name: name, path: so, exe: prog, multi: true, gdbEx: ex})
	}
	lib("lib-split-gcc-O2", gcc, true)
	if c := clangPath(); c != "" {
		lib("lib-clang19-O2", c, false)
	}
	return builds, root
}

// TestDWARFSharedLibraries: probes and bindings in a shared library given
// as -x, among them static functions of a stripped library (attached by
// file offset) whose DWARF is found by build id, equal gdb's values.
func TestDWARFSharedLibraries(t *testing.T) {
	dwRequireE2E(t)
	builds, root := dwLibTargets(t)
	save := dwarfvars.DebugRoot
	defer func() { dwarfvars.DebugRoot = save }()
	dwarfvars.DebugRoot = root
	for _, bld := range builds {
		t.Run(bld.name, func(t *testing.T) {
			f := dwCheckBuild(t, bld)
			t.Logf("%s: %d distinct (binary, site, variable) triples, %d matched gdb; %d comparisons, %d matched, %d gaps, %d agreed refusals",
				bld.name, f.unique, f.uniqueMatched, f.compared, f.matched, f.gaps, f.refusedOK)
			if f.unique < 20 || f.uniqueMatched != f.unique {
				t.Errorf("%d of %d triples matched gdb", f.uniqueMatched, f.unique)
			}
		})
	}
}

// TestDWARFParameterRef: a gcc clone that dropped a pointer parameter
// (account.isra.0) describes it as DW_OP_GNU_parameter_ref; bpfcc finds the
// caller's value by the return address, from an entry value at one call
// site and a static address at the other, and must equal gdb's q and what
// q points to at every hit.
func TestDWARFParameterRef(t *testing.T) {
	dwRequireE2E(t)
	gcc := dwRequireGCC(t)
	src, err := filepath.Abs("dwarf/paramref/paramref.c")
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "paramref-gcc-O2")
	if out, err := exec.Command(gcc, "-g", "-O2", "-o", bin, src).CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s", err, out)
	}
	probes := func(testing.TB, *dwarfvars.Binary) []dwProbe {
		extras := []string{"q->id", "q->size", "q->flags"}
		// The entry, where the call site's registers are still live, and a
		// later line, where bpfcc reads them as entry values.
		return []dwProbe{{"account", extras}, {"paramref.c:13", extras}}
	}
	f := dwCheckBuild(t, dwBuild{name: "paramref-gcc-O2", path: bin, probes: probes, args: []string{"4"}})
	if err, refused := f.refused["q"]; refused {
		t.Fatalf("q refused: %v", err)
	}
	t.Logf("%d triples, %d matched gdb; %d comparisons, %d through entry values, %d refusals gdb agrees with",
		f.unique, f.uniqueMatched, f.compared, f.entryChecked, f.refusedOK)
	if ok, bound := f.exprs["q->size"]; !bound || !ok || f.gaps > 0 || f.uniqueMatched != f.unique || f.entryChecked == 0 {
		t.Errorf("q->size bound %v, matched gdb %v; %d of %d triples matched, %d gaps, %d through entry values",
			bound, ok, f.uniqueMatched, f.unique, f.gaps, f.entryChecked)
	}
}
