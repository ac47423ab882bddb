package tests

// End-to-end DWARF tests of targets beyond one C program (issue 13): a
// library behind an opaque handle, compared with gdb through the harness
// of dwarf_e2e_test.go.

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

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
