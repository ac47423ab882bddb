package frontend

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/bpfcc/bpfcc/frontend/hcache"
)

func TestSplitPreamble(t *testing.T) {
	for _, c := range []struct{ src, pre string }{
		{"#include <a.h>\nint x;\n", "#include <a.h>\n"},
		{"// c\n#include <a.h>\n/* x\n y */\n#define A 1\n#include \"b.h\"\n\nint x;\n", "// c\n#include <a.h>\n/* x\n y */\n#define A 1\n#include \"b.h\"\n"},
		// Ends after the last include, not inside an #if.
		{"#include <a.h>\n#ifdef X\n#include <b.h>\n#endif\nint x;\n", "#include <a.h>\n#ifdef X\n#include <b.h>\n#endif\n"},
		{"#include <a.h>\n#ifdef X\nint y;\n#endif\n", "#include <a.h>\n"},
		// A directive that is neither #include nor #define ends it.
		{"#include <a.h>\n#pragma unroll\n#include <b.h>\n", "#include <a.h>\n"},
		{"int x;\n#include <a.h>\n", ""},
		{"#define A \\\n  1\n#include <a.h>\nint x;\n", "#define A \\\n  1\n#include <a.h>\n"},
		{"#include <a.h> /* open\n*/ int x;\n", ""},
	} {
		if got := c.src[:splitPreamble([]byte(c.src))]; got != c.pre {
			t.Errorf("splitPreamble(%q) = %q, want %q", c.src, got, c.pre)
		}
	}
}

// toks tokenises C for classifyDecl's tests.
func toks(src string) []ptok {
	var r []ptok
	for _, t := range scanTokens([]byte(src)) {
		r = append(r, ptok{text: t.text, ident: t.ident, file: "f.h", line: 1, col: t.off + 1})
	}
	// scanTokens skips numbers; cc's tokens, which classifyDecl sees, have
	// them.
	for _, m := range regexp.MustCompile(`\b[0-9][0-9a-zA-Z]*`).FindAllStringIndex(src, -1) {
		i := sort.Search(len(r), func(i int) bool { return r[i].col-1 > m[0] })
		r = slices.Insert(r, i, ptok{text: src[m[0]:m[1]], file: "f.h", line: 1, col: m[0] + 1})
	}
	return r
}

func TestClassifyDecl(t *testing.T) {
	typedefs := map[string]bool{"u32": true}
	for _, c := range []struct {
		src   string
		names string // sorted, space-separated
		keep  bool
	}{
		{"typedef unsigned int u32;", "u32", false},
		{"struct s { u32 a; struct t *p; };", "s", false},
		{"struct s;", "s", false},
		{"enum e { A = 1, B, C = A + 1 };", "A B C e", false},
		{"enum { X };", "X", false},
		{"typedef struct s { int a; } s_t, *s_p;", "s s_p s_t", false},
		{"int f(int a, struct s *b);", "f", false},
		{"extern int v;", "v", false},
		{"extern int k(void) __attribute__((section(\".ksyms\")));", "", true},
		{"static long (* const helper)(void *m, const void *k) = (void *) 1;", "helper", false},
		{"static long (*old_helper)(void *m) = (void *) 1;", "old_helper", false},
		{"static long (*fp)(void *m) = other_fn;", "", true},
		{"static inline __attribute__((always_inline)) int g(u32 x) { return x; }", "g", false},
		{"int global_fn(u32 x) { return x; }", "", true},
		{"int counter;", "", true},
		{"static int scount;", "", true},
		{"char LICENSE[] __attribute__((section(\"license\"), used)) = \"GPL\";", "", true},
		{"_Static_assert(1, \"x\");", "", true},
		{"u32 (*table[4])(int);", "", true},
		{"typedef int (*cb_t)(void *);", "cb_t", false},
	} {
		tk := toks(c.src)
		spans := splitTopDecls(tk)
		if len(spans) != 1 {
			t.Errorf("%s: %d declarations, want 1", c.src, len(spans))
			continue
		}
		d := topDecl{start: spans[0][0], end: spans[0][1]}
		classifyDecl(tk, &d, typedefs)
		names := slices.Clone(d.names)
		sort.Strings(names)
		if got := strings.Join(names, " "); d.keep != c.keep || !c.keep && got != c.names {
			t.Errorf("%s: names %q keep %v, want %q keep %v", c.src, got, d.keep, c.names, c.keep)
		}
	}
	if !typedefs["s_t"] || !typedefs["cb_t"] {
		t.Errorf("typedef names not recorded: %v", typedefs)
	}
}

func TestSplitTopDecls(t *testing.T) {
	src := "static int f(void) { return 0; } struct s { int a; } v = { 1 }; int (*g)(int) __attribute__((x)); int h(int a) __attribute__((y)) { return a; } ;"
	var got []string
	tk := toks(src)
	for _, s := range splitTopDecls(tk) {
		got = append(got, tk[s[0]].text+".."+tk[s[1]-1].text)
	}
	want := []string{"static..}", "struct..;", "int..;", "int..}", ";..;"}
	if !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// TestPreambleParse: a file with a preamble parses whole the first time,
// which makes the entry, then from the cache without what it cannot
// reach; a header changed behind the cache's back (same size, its mtime
// put back) is seen.
func TestPreambleParse(t *testing.T) {
	dir := t.TempDir()
	hdr := filepath.Join(dir, "h.h")
	main := filepath.Join(dir, "m.c")
	write := func(name, s string) { writeFile(t, name, s) }
	write(hdr, "#define V 1\nstruct used { int a; };\nstruct unused { int b; };\nstatic inline int helper(void) { return V; }\n")
	write(main, "#include \"h.h\"\nint get(struct used *u) { return u->a + helper() + V; }\n")
	cache := hcache.Open(filepath.Join(dir, "cache"))
	value := func(state string, cached bool) string {
		u, err := Parse(main, Options{Cache: cache})
		if err != nil {
			t.Fatalf("%s: %v", state, err)
		}
		if u.fromPreamble != cached {
			t.Fatalf("%s: parsed from the cached preamble: %v, want %v", state, u.fromPreamble, cached)
		}
		var found []string
		for _, n := range []string{"used", "unused", "helper"} {
			if u.AST.Scope.Nodes[n] != nil {
				found = append(found, n)
			}
		}
		return strings.Join(found, " ")
	}
	value("cold", false) // the whole file, making the entry
	if got := value("warm", true); got != "used helper" {
		t.Errorf("warm: file scope holds %q, want used and helper", got)
	}
	st, _ := os.Stat(hdr)
	write(hdr, "#define V 2\nstruct used { int a; };\nstruct unused { int b; };\nstatic inline int helper(void) { return V; }\n")
	os.Chtimes(hdr, st.ModTime(), st.ModTime())
	if p, _ := loadPreamble(cache, preambleKey(main, []byte("#include \"h.h\"\n"), Options{})); p != nil {
		t.Error("the entry still matches after the header changed")
	}
	value("changed header", false)
	value("warm again", true)
}

func TestFirstInclude(t *testing.T) {
	for _, c := range []struct{ pre, want string }{
		{"#include \"vmlinux.h\"\n#include <bpf/bpf_helpers.h>\n", "#include \"vmlinux.h\"\n"},
		{"// c\n/* d\n */\n#define BPF_NO_KFUNC_PROTOTYPES\n#include <vmlinux.h>\n#include <x.h>\n", "// c\n/* d\n */\n#define BPF_NO_KFUNC_PROTOTYPES\n#include <vmlinux.h>\n"},
		{"#include <linux/types.h>\n#include \"vmlinux.h\"\n", ""},
		{"#ifdef X\n#include \"vmlinux.h\"\n#endif\n", ""},
		{"#include \"bpf_iter.h\"\n", ""},
	} {
		if got := firstInclude([]byte(c.pre)); got != c.want {
			t.Errorf("firstInclude(%q) = %q, want %q", c.pre, got, c.want)
		}
	}
}

// TestPreambleErrors: an error in the code after the preamble reads the
// same with the cache, cold (the whole file compiled with the preamble's
// end marked) and warm (the reduced file fails, the whole file is
// compiled again), as without it.
func TestPreambleErrors(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "h.h"), []byte("struct s { int a; };\n"), 0o644)
	main := filepath.Join(dir, "m.c")
	os.WriteFile(main, []byte("#include \"h.h\"\n\nint get(struct s *p)\n{\n\treturn p->b;\n}\n"), 0o644)
	_, want := Parse(main, Options{})
	if want == nil {
		t.Fatal("no error without the cache")
	}
	cache := hcache.Open(filepath.Join(dir, "cache"))
	for _, state := range []string{"cold", "warm"} {
		if _, err := Parse(main, Options{Cache: cache}); err == nil || err.Error() != want.Error() {
			t.Errorf("%s: %v, want %v", state, err, want)
		}
	}
}

// TestCommentFreeKey: preambles that differ only in whole-line comments
// share a key; a difference the preprocessor sees never does.
func TestCommentFreeKey(t *testing.T) {
	base := "// SPDX-License-Identifier: GPL-2.0\n/* Copyright (c) A */\n#include <a.h>\n#define X 1 /* one */\n"
	for _, tc := range []struct {
		other string
		same  bool
	}{
		{"// SPDX-License-Identifier: MIT\n/* Copyright (c) Someone Else, 2024 */\n#include <a.h>\n#define X 1 /* one */\n", true},
		{"\n\n#include <a.h>\n#define X 1 /* one */\n", true},
		// A line more moves every position after it.
		{"// SPDX\n\n\n#include <a.h>\n#define X 1 /* one */\n", false},
		// The comment on a line with code is part of that line.
		{"// SPDX\n/* C */\n#include <a.h>\n#define X 1 /* two */\n", false},
		// A // comment ending in a backslash swallows the next line.
		{"// SPDX \\\n/* C */\n#include <a.h>\n#define X 1 /* one */\n", false},
		// A block comment left open hides the next line.
		{"// SPDX\n/* C\n#include <a.h>\n#define X 1 /* one */\n", false},
	} {
		got := bytes.Equal(commentFree([]byte(base)), commentFree([]byte(tc.other)))
		if got != tc.same {
			t.Errorf("commentFree(%q) == commentFree(%q): %v, want %v", base, tc.other, got, tc.same)
		}
	}
}

// TestReducedPreamble: the declarations a body reaches are cached by the
// identifiers it names: a body naming something new reaches it, an edit
// naming nothing new reuses the reduced entry, and a corrupt reduced
// entry only warns.
func TestReducedPreamble(t *testing.T) {
	dir := t.TempDir()
	hdr := filepath.Join(dir, "h.h")
	main := filepath.Join(dir, "m.c")
	write := func(name, s string) { writeFile(t, name, s) }
	write(hdr, "struct used { int a; };\nstruct unused { int b; };\nstatic inline int helper(void) { return 1; }\n")
	cache := hcache.Open(filepath.Join(dir, "cache"))
	found := func(body string) string {
		write(main, "#include \"h.h\"\n"+body)
		u, err := Parse(main, Options{Cache: cache})
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, n := range []string{"used", "unused", "helper"} {
			if u.AST.Scope.Nodes[n] != nil {
				names = append(names, n)
			}
		}
		return strings.Join(names, " ")
	}
	body := "int get(struct used *u) { return u->a + helper(); }\n"
	found(body) // makes the preamble entry
	if got := found(body); got != "used helper" {
		t.Fatalf("warm: %q", got)
	}
	rkey := reducedKey(preambleKey(main, []byte("#include \"h.h\"\n"), Options{}), []byte(body))
	if _, ok := cache.Get(rkey); !ok {
		t.Fatal("no reduced entry after a warm compile")
	}
	if got := found("int get(struct used *u, struct unused *v) { return u->a + v->b; }\n"); got != "used unused" {
		t.Errorf("a body naming struct unused: %q", got)
	}
	// The preamble entry unreadable: an edit naming nothing new still
	// compiles from the reduced one, without a warning.
	key := preambleKey(main, []byte("#include \"h.h\"\n"), Options{})
	whole, _ := cache.Get(key)
	cache.Put(key, []byte("garbage"))
	if got := found("int get(struct used *u) { return u->a + helper() + 2; }\n"); got != "used helper" {
		t.Errorf("an edit naming nothing new: %q", got)
	}
	if w := cache.Warnings(); len(w) != 0 {
		t.Errorf("an edit naming nothing new read the preamble entry: %q", w)
	}
	cache.Put(key, whole)
	cache.Put(rkey, []byte("garbage"))
	if got := found(body); got != "used helper" {
		t.Errorf("with a corrupt reduced entry: %q", got)
	}
	if w := cache.Warnings(); len(w) != 1 || !strings.Contains(w[0], "malformed reduced preamble") {
		t.Errorf("warnings: %q, want one about the reduced entry", w)
	}
}

func writeFile(t *testing.T, name, s string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}
