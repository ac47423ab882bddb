package frontend

import (
	"slices"
	"testing"
)

// Describe reports each defined function once, with its parameters,
// section (none for a static inline function, which is never a program),
// linkage, inline-ness, callers, context-first and position, and the
// file-scope SEC("config") strings.
func TestDescribe(t *testing.T) {
	u, err := Parse("t.c", Options{Source: []byte(`struct pt_regs;
char _c[] __attribute__((section("config"))) = "h: work n";
char _d[] __attribute__((section("config"))) = "g: " "other";
static inline __attribute__((section("kprobe/x"))) int inl(void *ctx) { return 0; }
static int helper(int a) { return a; }
__attribute__((section("uprobe"))) int h(void *ctx, int n) { return helper(n) + inl(ctx); }
int g(struct pt_regs *regs, long a, long b) { return helper(a); }
int (*tab[])(void *, int) = { h };
int take(void) { return (long)&g; }
`)})
	if err != nil {
		t.Fatal(err)
	}
	sh := Describe(u)
	if len(sh.Config) != 2 || sh.Config[0].Text != "h: work n" || sh.Config[1].Text != "g: other" || sh.Config[0].Pos.Line != 2 {
		t.Errorf("config = %+v", sh.Config)
	}
	want := []struct {
		name, params, section string
		static, inline        bool
		calledBy              []string
		ctx                   bool
		line                  int
	}{
		{"inl", "ctx", "", true, true, []string{"h"}, true, 4},
		{"helper", "a", "", true, false, []string{"g", "h"}, false, 5},
		{"h", "ctx n", "uprobe", false, false, []string{"tab"}, true, 6},
		{"g", "regs a b", "", false, false, []string{"take"}, true, 7},
		{"take", "", "", false, false, nil, false, 9},
	}
	if len(sh.Funcs) != len(want) {
		t.Fatalf("funcs = %+v", sh.Funcs)
	}
	for i, w := range want {
		f := sh.Funcs[i]
		params := ""
		for j, p := range f.Params {
			if j > 0 {
				params += " "
			}
			params += p
		}
		if f.Name != w.name || params != w.params || f.Section != w.section || f.Static != w.static || f.Inline != w.inline ||
			!slices.Equal(f.CalledBy, w.calledBy) || f.CtxFirst != w.ctx || f.Pos.Line != w.line || f.Pos.Filename != "t.c" {
			t.Errorf("func %d = %+v, want %+v", i, f, w)
		}
	}
}
