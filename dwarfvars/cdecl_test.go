package dwarfvars

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// ctypesBuilds builds testdata/ctypes.c as the tests trace it.
func ctypesBuilds(t *testing.T) map[string]string {
	src, err := os.ReadFile("testdata/ctypes.c")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, b := range []struct{ name, cc, opt string }{{"gcc-O0", "gcc", "-O0"}, {"gcc-O2", "gcc", "-O2"}, {"clang19-O2", clang, "-O2"}} {
		if _, err := exec.LookPath(b.cc); err != nil {
			t.Logf("%s not installed", b.cc)
			continue
		}
		out[b.name] = buildFiles(t, b.cc, []string{"-g", b.opt}, map[string]string{"ctypes.c": string(src)}, "ctypes.c")
	}
	return out
}

// The declarations CTypes prints lay every type out as the binary's DWARF
// says: gcc compiles them with their _Static_asserts (every member offset
// and every size) on x86-64, where the traced binary was built.
func TestCTypesLayoutCompiles(t *testing.T) {
	for name, bin := range ctypesBuilds(t) {
		t.Run(name, func(t *testing.T) {
			b := open(t, bin)
			for _, roots := range [][]string{{"State"}, nil} {
				text, err := b.CTypes(CTypesOptions{Roots: roots, Strict: true})
				if err != nil {
					t.Fatal(err)
				}
				for _, want := range []string{"struct State {", "struct __attribute__((packed)) Packed {", "unsigned long ratio; /* double */",
					"unsigned int flags : 3;", "typedef void *cfunc;", "int (*rows)[3];", "struct Opaque;", "__builtin_offsetof(struct State, wide) =="} {
					if !strings.Contains(text, want) {
						t.Errorf("roots %v: no %q in\n%s", roots, want, text)
					}
				}
				if strings.Contains(text, "struct Opaque {") {
					t.Errorf("struct Opaque has no definition in the binary but was defined:\n%s", text)
				}
				gccCheck(t, text)
			}
		})
	}
}

// A Go binary's types (this test's own: Go's runtime) have what C
// declarations cannot say as such: members that are C keywords, many
// blank "_" members, names with dots and brackets, pointers to arrays of
// structs. They print as C gcc accepts with every layout check.
func TestCTypesGoBinary(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	b, err := Open(exe)
	if err != nil {
		t.Skipf("test binary without DWARF: %v", err)
	}
	defer b.Close()
	text, err := b.CTypes(CTypesOptions{Roots: []string{"runtime.g", "runtime_pageAlloc"}, Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"struct runtime_g {", "struct runtime_pageAlloc {"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q", want)
		}
	}
	gccCheck(t, text)
}

// gccCheck compiles declarations with gcc -fsyntax-only.
func gccCheck(t *testing.T, text string) {
	t.Helper()
	f := filepath.Join(t.TempDir(), "decls.c")
	if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("gcc", "-fsyntax-only", "-std=gnu11", f).CombinedOutput(); err != nil {
		t.Errorf("gcc refuses the declarations: %v\n%s\n%s", err, out, text)
	}
}

// With Mentioned (a program's identifiers), a struct reached only through
// a pointer member the program does not name is declared, not defined;
// naming the member defines it. Reserved tags are renamed.
func TestCTypesBounded(t *testing.T) {
	for _, bin := range ctypesBuilds(t) {
		b := open(t, bin)
		text, err := b.CTypes(CTypesOptions{Roots: []string{"State"}, Mentioned: map[string]bool{"State": true}})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(text, "struct Global;") || strings.Contains(text, "struct Global {") || !strings.Contains(text, " Packed {") {
			t.Errorf("l_G not mentioned: want struct Global declared only, struct Packed (held by value) defined:\n%s", text)
		}
		gccCheck(t, text)
		text, err = b.CTypes(CTypesOptions{Roots: []string{"State"}, Mentioned: map[string]bool{"State": true, "l_G": true}, Reserved: map[string]bool{"Packed": true}})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(text, "struct Global {") || !strings.Contains(text, "struct Packed___target pk[2];") {
			t.Errorf("l_G mentioned, Packed reserved: want struct Global defined, Packed renamed:\n%s", text)
		}
		gccCheck(t, text)
		if _, err := b.CTypes(CTypesOptions{Roots: []string{"struct Nope", "State"}, Strict: true}); !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), `"struct Nope"`) {
			t.Errorf("unknown root: got %v, want ErrNotFound naming it", err)
		}
		return
	}
}

// C++ types inside namespaces and classes are declared by their qualified
// name as C spells it (a::Node is struct a__Node), so two namespaces'
// types of one name stay apart; a root may name a type qualified, as C
// spells it, or by its own name.
func TestCTypesCXXNamespaces(t *testing.T) {
	src := `namespace a { struct Node { long v; Node *next; }; }
namespace b { struct Node { int k; short w; }; struct Outer { struct Inner { char c; long d; } in; int n; }; }
struct Holder { a::Node *an; b::Node bn; b::Outer out; };
__attribute__((noinline)) long use(Holder *h) { return h->an->v + h->bn.k + h->out.in.d; }
int main() { a::Node n{4, nullptr}; Holder h{&n, {1, 2}, {{'x', 5}, 6}}; return (int)use(&h); }
`
	bin := buildFiles(t, "g++", []string{"-g", "-O0"}, map[string]string{"ns.cpp": src}, "ns.cpp")
	b := open(t, bin)
	text, err := b.CTypes(CTypesOptions{Roots: []string{"Holder"}, Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"struct a__Node *an;", "struct b__Node bn;", "struct b__Outer out;",
		"struct b__Outer__Inner in;", "struct a__Node *next;", "\tshort w;"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in\n%s", want, text)
		}
	}
	gccCheck(t, text)
	for _, root := range []string{"a::Node", "a__Node", "struct a::Node"} {
		text, err := b.CTypes(CTypesOptions{Roots: []string{root}, Strict: true})
		if err != nil {
			t.Errorf("root %q: %v", root, err)
			continue
		}
		if !strings.Contains(text, "struct a__Node {") || strings.Contains(text, "struct b__Node {") {
			t.Errorf("root %q: want a::Node alone, got\n%s", root, text)
		}
	}
}

func TestTypedefsIn(t *testing.T) {
	src := `typedef int a_t, *b_t; typedef struct { int x[4]; } rec;
typedef long (*fn)(int, char *); typedef char buf[16];
struct s { int typedef_not; }; // typedef in a comment has no ';' before the next
`
	got := typedefsIn([]byte(src))
	for _, want := range []string{"a_t", "b_t", "rec", "fn", "buf"} {
		if !got[want] {
			t.Errorf("typedef %s not found in %v", want, got)
		}
	}
	if got["x"] || got["int"] || got["long"] {
		t.Errorf("non-typedef names in %v", got)
	}
}
