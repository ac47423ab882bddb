package tests

// End-to-end DWARF tests of targets beyond one C program (issue 13): a
// library behind an opaque handle, compared with gdb through the harness
// of dwarf_e2e_test.go.

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/bpfcc/bpfcc"
	"github.com/bpfcc/bpfcc/dwarfvars"
)

var dwOpaqueDir = filepath.Join("dwarf", "opaque")

// dwOpaqueTargets builds tests/dwarf/opaque (o_main.c sees only "typedef
// struct state state;", o_state.c defines it) with gcc -O0, gcc -O2 PIE
// and clang-19 -O2.
func dwOpaqueTargets(t testing.TB) []dwBuild {
	t.Helper()
	gcc := dwRequireGCC(t)
	dir := t.TempDir()
	var srcs []string
	for _, n := range []string{"o_main.c", "o_state.c"} {
		p, err := filepath.Abs(filepath.Join(dwOpaqueDir, n))
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, p)
	}
	var builds []dwBuild
	add := func(name, cc string, flags ...string) {
		out := filepath.Join(dir, "opaque-"+name)
		args := append(append(append([]string{}, flags...), "-o", out), srcs...)
		if b, err := exec.Command(cc, args...).CombinedOutput(); err != nil {
			t.Fatalf("%s %s: %v\n%s", cc, strings.Join(args, " "), err, b)
		}
		builds = append(builds, dwBuild{name: "opaque-" + name, path: out, probes: dwOpaqueProbes})
	}
	add("gcc-O0", gcc, "-g", "-O0", "-no-pie")
	add("gcc-O2-pie", gcc, "-g", "-O2", "-fPIE", "-pie")
	if c := clangPath(); c != "" {
		add("clang19-O2", c, "-g", "-O2", "-no-pie")
	} else {
		t.Logf("clang-19 not installed: only gcc builds are traced")
	}
	return builds
}

// dwOpaqueMembers are the members of struct state bound through the
// pointer whose type o_main.c only declares: plain members, an array
// element, bit-fields, a pointer to another state and a member through it.
var dwOpaqueMembers = []string{"L->top", "L->base", "L->stack[1]", "L->kind", "L->flags", "L->parent", "L->parent->base", "L->parent->kind"}

func dwOpaqueProbes(t testing.TB, b *dwarfvars.Binary) []dwProbe {
	m := dwReadMarksFiles(t, filepath.Join(dwOpaqueDir, "o_main.c"))
	return []dwProbe{
		{"step", dwOpaqueMembers},
		{m.file(t, "opaque_line"), dwOpaqueMembers},
	}
}

// TestDWARFOpaqueTypes: in o_main.c struct state is only declared (an
// opaque handle, as lua_State is to users of lua.h); its members are bound
// through the definition in o_state.c, as gdb finds it, and every value
// equals gdb's at every hit.
func TestDWARFOpaqueTypes(t *testing.T) {
	dwRequireE2E(t)
	for _, bld := range dwOpaqueTargets(t) {
		t.Run(bld.name, func(t *testing.T) {
			f := dwCheckBuild(t, bld)
			t.Logf("%s: %d distinct (binary, site, variable) triples, %d matched gdb; %d refusals agreed with gdb, %d gaps",
				bld.name, f.unique, f.uniqueMatched, f.refusedOK, f.gaps)
			for _, e := range dwOpaqueMembers {
				if err, refused := f.refused[e]; refused {
					t.Errorf("%s refused: %v", e, err)
				} else if !f.exprs[e] {
					t.Errorf("%s did not match gdb at every site (see the log)", e)
				}
			}
		})
	}
}

var dwCXXSrc = filepath.Join("dwarf", "cpp", "target.cc")

// dwCXXTargets builds tests/dwarf/cpp/target.cc with g++ -O0, g++ -O2 and
// clang++-19 -O2.
func dwCXXTargets(t testing.TB) []dwBuild {
	t.Helper()
	gxx, err := exec.LookPath("g++")
	if err != nil {
		skipOrFail(t, "g++ not installed: the C++ target is built with g++ -g")
	}
	src, err := filepath.Abs(dwCXXSrc)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var builds []dwBuild
	add := func(name, cc string, flags ...string) {
		out := filepath.Join(dir, "cxx-"+name)
		args := append(append(append([]string{}, flags...), "-o", out), src)
		if b, err := exec.Command(cc, args...).CombinedOutput(); err != nil {
			t.Fatalf("%s %s: %v\n%s", cc, strings.Join(args, " "), err, b)
		}
		builds = append(builds, dwBuild{name: "cxx-" + name, path: out, probes: dwCXXProbes})
	}
	add("g++-O0", gxx, "-g", "-O0", "-no-pie")
	add("g++-O2", gxx, "-g", "-O2")
	if c, err := exec.LookPath("clang++-19"); err == nil {
		add("clang++19-O2", c, "-g", "-O2", "-no-pie")
	} else {
		t.Logf("clang++-19 not installed: only g++ builds are traced")
	}
	return builds
}

// dwCXXExprs are the expressions every C++ build must bind and match gdb
// on: members through this (of the class and of its base class), members
// through a reference parameter, and a namespaced global.
var dwCXXExprs = []string{"this->total", "this->hits", "this->id", "this->weight", "c.total", "c.id", "c.weight", "geo::g_calls", "v", "a", "b", "f"}

func dwCXXProbes(t testing.TB, b *dwarfvars.Binary) []dwProbe {
	m := dwReadMarksFiles(t, dwCXXSrc)
	return []dwProbe{
		// Overloads picked by their parameter lists, written as a user
		// would (with blanks, qualified type names, gcc's "long int").
		{"geo::Counter::add(long)", []string{"this->total", "this->hits", "this->id", "this->weight", "geo::g_calls"}},
		{"Counter::add(int,int)", []string{"this->total", "this->hits", "this->id"}},
		{"geo::scale(const geo::Counter &, long int)", []string{"c.total", "c.id", "c.weight", "geo::g_calls"}},
		{"geo::scale", []string{"c.total", "c.weight"}},
		{m.file(t, "add_long"), []string{"this->weight", "this->total", "geo::g_calls"}},
		{m.file(t, "scale_line"), []string{"c.total", "c.id", "f"}},
		{"geo::scale%return", nil},
	}
}

// TestDWARFCXX: C++ probes by qualified name (Class::method, ns::func,
// overloads by parameter list), this->member of the class and of its base
// class, members through a reference and a namespaced global, each equal
// to gdb's value at every hit.
func TestDWARFCXX(t *testing.T) {
	dwRequireE2E(t)
	for _, bld := range dwCXXTargets(t) {
		t.Run(bld.name, func(t *testing.T) {
			f := dwCheckBuild(t, bld)
			t.Logf("%s: %d distinct (binary, site, variable) triples, %d matched gdb; %d refusals agreed with gdb, %d gaps",
				bld.name, f.unique, f.uniqueMatched, f.refusedOK, f.gaps)
			for _, e := range dwCXXExprs {
				if err, refused := f.refused[e]; refused {
					t.Errorf("%s refused: %v", e, err)
				} else if ok, seen := f.exprs[e]; !seen || !ok {
					t.Errorf("%s bound %v, matched gdb at every hit %v", e, seen, ok)
				}
			}
			if f.uniqueMatched != f.unique {
				t.Errorf("%d of %d triples differ from gdb", f.unique-f.uniqueMatched, f.unique)
			}
		})
	}
}

var dwGoDir = filepath.Join("dwarf", "testdata", "gotarget")

// dwGoTargets builds tests/dwarf/testdata/gotarget with the go command
// running these tests, normally (register ABI, location lists) and with
// -gcflags=all='-N -l' (no optimisation, no inlining).
func dwGoTargets(t testing.TB) []dwBuild {
	t.Helper()
	goCmd, err := exec.LookPath("go")
	if err != nil {
		skipOrFail(t, "go not in PATH: the Go target is built at test time")
	}
	dir := t.TempDir()
	var builds []dwBuild
	for _, v := range []struct{ name, flags string }{{"go", ""}, {"go-N-l", "all=-N -l"}} {
		out := filepath.Join(dir, v.name)
		args := []string{"build", "-o", out}
		if v.flags != "" {
			args = append(args, "-gcflags="+v.flags)
		}
		cmd := exec.Command(goCmd, append(args, ".")...)
		cmd.Dir = dwGoDir
		// The heap at the same addresses in both runs, so that pointers
		// compare (Go 1.26 randomizes its heap base).
		cmd.Env = append(cmd.Environ(), "GOFLAGS=", "GOWORK=off", "CGO_ENABLED=0", "GOEXPERIMENT=norandomizedheapbase64")
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, b)
		}
		builds = append(builds, dwBuild{name: v.name, path: out, probes: dwGoProbes, gdbEx: []string{"set language c"},
			env: []string{"GODEBUG=asyncpreemptoff=1"}, movingHeap: true})
	}
	return builds
}

// dwGoExprs must bind and match gdb in every Go build.
var dwGoExprs = []string{"a->Total", "a->Hits", "v", "n", "s.len", "xs.len", "xs.cap"}

func dwGoProbes(t testing.TB, b *dwarfvars.Binary) []dwProbe {
	m := dwReadMarksFiles(t, filepath.Join(dwGoDir, "main.go"))
	return []dwProbe{
		{"main.(*Acc).Add", []string{"a->Total", "a->Hits", "v"}},
		{"main.compute", []string{"n", "s.len", "xs.len", "xs.array", "xs.cap"}},
		{m.file(t, "go_add"), []string{"a->Total", "a->Hits", "v"}},
		{m.file(t, "go_compute"), []string{"n", "s.len", "xs.len"}},
	}
}

// TestDWARFGo: Go binaries (register ABI with location lists, and -N -l)
// probed by FILE.go:LINE, pkg.Func and pkg.(*T).Method; strings and slices
// bound by member; every value equal to gdb's. A return probe on a Go
// function is refused with the reason.
func TestDWARFGo(t *testing.T) {
	dwRequireE2E(t)
	for _, bld := range dwGoTargets(t) {
		t.Run(bld.name, func(t *testing.T) {
			f := dwCheckBuild(t, bld)
			t.Logf("%s: %d distinct (binary, site, variable) triples, %d matched gdb; %d refusals agreed with gdb, %d gaps",
				bld.name, f.unique, f.uniqueMatched, f.refusedOK, f.gaps)
			for _, e := range dwGoExprs {
				if err, refused := f.refused[e]; refused {
					t.Errorf("%s refused: %v", e, err)
				} else if ok, seen := f.exprs[e]; !seen || !ok {
					t.Errorf("%s bound %v, matched gdb at every hit %v", e, seen, ok)
				}
			}
			_, p, err := dwCompileOne(t, dwOneHandler("prog: main.compute%return r=$retval", "r"), bpfcc.Options{Binary: bld.path})
			dwExpectDiag(t, err, p, `"prog"`, "main.compute%return", "Go", "corrupt")
		})
	}
}

// dwSplitTargets builds tests/dwarf/target.c with gcc -g -O2 and moves
// its DWARF into a separate file, as distributions ship symbols: one
// binary keeps its symbol table and names its debug file next to it with
// .gnu_debuglink; the other is stripped of everything and its debug file
// is found by build id under root/.build-id/xx/yyyy.debug.
func dwSplitTargets(t testing.TB) (builds []dwBuild, root string) {
	t.Helper()
	gcc := dwRequireGCC(t)
	for _, tool := range []string{"objcopy", "strip"} {
		if _, err := exec.LookPath(tool); err != nil {
			skipOrFail(t, "%s not installed: needed to split debug info", tool)
		}
	}
	src, err := filepath.Abs(dwTargetSrc)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	root = filepath.Join(dir, "debugroot")
	run := func(name string, args ...string) {
		if b, err := exec.Command(name, args...).CombinedOutput(); err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, b)
		}
	}
	for _, v := range []string{"debuglink", "buildid"} {
		out := filepath.Join(dir, "split-"+v)
		run(gcc, "-g", "-O2", "-no-pie", "-Wl,--build-id", "-o", out, src)
		dbg := out + ".debug"
		run("objcopy", "--only-keep-debug", out, dbg)
		if v == "debuglink" {
			run("strip", "--strip-debug", out)
			run("objcopy", "--add-gnu-debuglink="+dbg, out)
		} else {
			run("strip", "--strip-all", out)
			id := dwBuildID(t, out)
			d := filepath.Join(root, ".build-id", id[:2])
			run("mkdir", "-p", d)
			run("mv", dbg, filepath.Join(d, id[2:]+".debug"))
		}
		gdbRoot := filepath.Join(root, "none")
		if v == "buildid" {
			gdbRoot = root
		}
		builds = append(builds, dwBuild{name: "split-" + v, path: out, gdbEx: []string{"set debug-file-directory " + gdbRoot}})
	}
	return builds, root
}

// dwBuildID reads a binary's GNU build id (hex) with readelf -n.
func dwBuildID(t testing.TB, path string) string {
	t.Helper()
	out, err := exec.Command("readelf", "-n", path).CombinedOutput()
	if err != nil {
		t.Fatalf("readelf -n %s: %v\n%s", path, err, out)
	}
	m := regexp.MustCompile(`Build ID: ([0-9a-f]+)`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("%s has no build id:\n%s", path, out)
	}
	return string(m[1])
}

// TestDWARFSplitDebug: binaries whose DWARF is in a separate file, found
// through .gnu_debuglink next to the binary and through the build id under
// the debug root, bind the same variables as the unsplit build, with
// gdb's values (gdb finds the same files); the fully stripped one is
// attached by file offset, its functions having no symbols of their own.
func TestDWARFSplitDebug(t *testing.T) {
	dwRequireE2E(t)
	builds, root := dwSplitTargets(t)
	save := dwarfvars.DebugRoot
	defer func() { dwarfvars.DebugRoot = save }()
	for _, bld := range builds {
		t.Run(bld.name, func(t *testing.T) {
			// Both builds have one build id: only the build-id one may
			// find its debug file under the root.
			want := bld.path + ".debug"
			dwarfvars.DebugRoot = filepath.Join(root, "none")
			if bld.name == "split-buildid" {
				dwarfvars.DebugRoot = root
				id := dwBuildID(t, bld.path)
				want = filepath.Join(root, ".build-id", id[:2], id[2:]+".debug")
			}
			b, err := dwarfvars.Open(bld.path)
			if err != nil {
				t.Fatalf("dwarfvars.Open: %v", err)
			}
			if b.DebugPath != want {
				t.Errorf("DWARF read from %s, want %s", b.DebugPath, want)
			}
			t.Logf("debug file: %s", b.DebugPath)
			b.Close()
			f := dwCheckBuild(t, bld)
			t.Logf("%s: %d distinct (binary, site, variable) triples, %d matched gdb; %d refusals agreed with gdb, %d gaps",
				bld.name, f.unique, f.uniqueMatched, f.refusedOK, f.gaps)
			if f.unique < 20 || f.uniqueMatched != f.unique {
				t.Errorf("%d of %d triples matched gdb", f.uniqueMatched, f.unique)
			}
		})
	}
}
