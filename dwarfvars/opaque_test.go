package dwarfvars

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// buildFiles writes sources into a temporary directory and links them with
// cc and flags.
func buildFiles(t *testing.T, cc string, flags []string, files map[string]string, order ...string) string {
	t.Helper()
	if _, err := exec.LookPath(cc); err != nil {
		t.Skipf("skipped: %s not installed", cc)
	}
	dir := t.TempDir()
	var srcs []string
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range order {
		srcs = append(srcs, filepath.Join(dir, name))
	}
	bin := filepath.Join(dir, "prog")
	args := append(append(append([]string{}, flags...), "-o", bin), srcs...)
	if out, err := exec.Command(cc, args...).CombinedOutput(); err != nil {
		t.Fatalf("%s %v: %v\n%s", cc, args, err, out)
	}
	return bin
}

// A pointer whose struct its unit only declares (struct state; as
// lua_State in lua.h) binds its members through the definition in the
// unit that has it: the offsets are the definition's, and a pointer member
// of the same opaque type is followed as well.
func TestOpaqueStructFromOtherUnit(t *testing.T) {
	files := map[string]string{
		"lib.c": "#include <stdlib.h>\nstruct state { int top; long base; long stack[8]; struct state *parent; };\n" +
			"struct state *state_new(int d) { struct state *L = calloc(1, sizeof *L); L->base = d; if (d) L->parent = state_new(d - 1); return L; }\n" +
			"void state_push(struct state *L, long v) { L->stack[L->top++ & 7] = v; }\n",
		"main.c": "struct state;\nstruct state *state_new(int);\nvoid state_push(struct state *, long);\n" +
			"__attribute__((noinline)) long step(struct state *L, int k)\n{\n\tstate_push(L, k);\n\treturn k;\n}\n" +
			"int main(int argc, char **argv) { struct state *L = state_new(2); return (int)step(L, argc); }\n",
	}
	for _, cc := range []struct {
		cc    string
		flags []string
	}{{"gcc", []string{"-g", "-O0"}}, {"gcc", []string{"-g", "-O2"}}, {clang, []string{"-g", "-O2"}}} {
		bin := buildFiles(t, cc.cc, cc.flags, files, "main.c", "lib.c")
		b := open(t, bin)
		sites, err := b.Resolve(mustProbe(t, "step"))
		if err != nil || len(sites) != 1 {
			t.Fatalf("%s %v: resolve step: %v %v", cc.cc, cc.flags, sites, err)
		}
		for expr, want := range map[string]string{
			"L->top":         "s32",
			"L->base":        "s64",
			"L->stack[3]":    "s64",
			"L->parent":      "u64",
			"L->parent->top": "s32",
			"*L":             "struct state",
		} {
			e, err := ParseExpr(expr)
			if err != nil {
				t.Fatal(err)
			}
			bd, err := b.Bind(sites[0], e)
			if err != nil {
				t.Errorf("%s %v: %s: %v", cc.cc, cc.flags, expr, err)
				continue
			}
			if bd.Type.Short() != want {
				t.Errorf("%s %v: %s has type %s, want %s", cc.cc, cc.flags, expr, bd.Type.Short(), want)
			}
			if expr == "L->stack[3]" && !strings.Contains(bd.Describe(), "+ 40") && !strings.Contains(bd.Describe(), "+40") {
				t.Errorf("%s %v: %s = %s: not at offset 16+3*8 = 40", cc.cc, cc.flags, expr, bd.Describe())
			}
			if expr == "*L" && bd.Type.Size != 88 {
				t.Errorf("%s %v: *L is %d bytes, want 88", cc.cc, cc.flags, bd.Type.Size)
			}
		}
		e, _ := ParseExpr("L->nosuch")
		if _, err := b.Bind(sites[0], e); err == nil || !strings.Contains(err.Error(), "top") {
			t.Errorf("%s %v: L->nosuch: %v, want the definition's members listed", cc.cc, cc.flags, err)
		}
	}
}

// Two units define struct handle with different layouts and a third only
// declares it: a member of it cannot be bound, and the error names both
// defining units. When the layouts agree, either definition does.
func TestOpaqueStructAmbiguous(t *testing.T) {
	mk := func(second string) map[string]string {
		return map[string]string{
			"a.c": "struct handle { int a; int b; };\nint use_a(struct handle *h) { return h->a + h->b; }\n",
			"b.c": second,
			"main.c": "struct handle;\nint use_a(struct handle *);\n" +
				"__attribute__((noinline)) int probe_me(struct handle *h, int k)\n{\n\treturn use_a(h) + k;\n}\n" +
				"int main(void) { return 0; }\n",
		}
	}
	differ := mk("struct handle { long x; long y; };\nlong use_b(struct handle *h) { return h->x + h->y; }\n")
	bin := buildFiles(t, "gcc", []string{"-g", "-O0"}, differ, "main.c", "a.c", "b.c")
	b := open(t, bin)
	sites, err := b.Resolve(mustProbe(t, "probe_me"))
	if err != nil || len(sites) != 1 {
		t.Fatalf("resolve probe_me: %v %v", sites, err)
	}
	e, _ := ParseExpr("h->a")
	_, err = b.Bind(sites[0], e)
	var oe *OpaqueTypeError
	if !errors.As(err, &oe) || !errors.Is(err, ErrNotFound) {
		t.Fatalf("h->a with two layouts of struct handle: %v", err)
	}
	t.Logf("%v", err)
	for _, w := range []string{"a.c", "b.c", "main.c", "struct handle", "different layouts"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q lacks %q", err, w)
		}
	}

	same := mk("struct handle { int a; int b; };\nint use_b(struct handle *h) { return h->a - h->b; }\n")
	b2 := open(t, buildFiles(t, "gcc", []string{"-g", "-O0"}, same, "main.c", "a.c", "b.c"))
	sites, err = b2.Resolve(mustProbe(t, "probe_me"))
	if err != nil || len(sites) != 1 {
		t.Fatalf("resolve probe_me: %v %v", sites, err)
	}
	e, _ = ParseExpr("h->b")
	if bd, err := b2.Bind(sites[0], e); err != nil || bd.Type.Short() != "s32" {
		t.Errorf("h->b with one layout in two units: %v %v", bd, err)
	}

	// No unit defines it.
	none := map[string]string{"main.c": "struct ghost;\n__attribute__((noinline)) int probe_me(struct ghost *g, int k) { return k + (g != 0); }\nint main(void) { return probe_me(0, 1); }\n"}
	b3 := open(t, buildFiles(t, "gcc", []string{"-g", "-O0"}, none, "main.c"))
	sites, _ = b3.Resolve(mustProbe(t, "probe_me"))
	e, _ = ParseExpr("g->x")
	if _, err := b3.Bind(sites[0], e); !errors.As(err, &oe) || !strings.Contains(err.Error(), "no compile unit") {
		t.Errorf("g->x of a struct no unit defines: %v", err)
	}
}

// C++: the declaration's qualified name picks the definition: two
// namespaces define a struct State each, the probed unit declares only
// one::State, and its members come from one::State.
func TestOpaqueCXXQualified(t *testing.T) {
	files := map[string]string{
		"one.cc": "namespace one { struct State { int pad; long level; }; long get(State *s) { return s->level; } }\n",
		"two.cc": "namespace two { struct State { long a, b, c; int level; }; long get(State *s) { return s->level; } }\n",
		"main.cc": "namespace one { struct State; long get(State *); }\n" +
			"__attribute__((noinline)) long probe_me(one::State *st, int k) { return one::get(st) + k; }\n" +
			"int main() { return 0; }\n",
	}
	for _, cc := range []string{"g++", "clang++-19"} {
		b := open(t, buildFiles(t, cc, []string{"-g", "-O0"}, files, "main.cc", "one.cc", "two.cc"))
		sites, err := b.Resolve(mustProbe(t, "probe_me"))
		if err != nil || len(sites) != 1 {
			t.Fatalf("%s: resolve probe_me: %v %v", cc, sites, err)
		}
		e, _ := ParseExpr("st->level")
		bd, err := b.Bind(sites[0], e)
		if err != nil {
			t.Fatalf("%s: st->level: %v", cc, err)
		}
		if bd.Type.Short() != "s64" || !strings.Contains(bd.Describe(), "+8") && !strings.Contains(bd.Describe(), "+ 8") {
			t.Errorf("%s: st->level = %s (%s), want one::State's long at offset 8", cc, bd.Describe(), bd.Type.Short())
		}
	}
}
