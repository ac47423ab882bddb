package frontend

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"modernc.org/cc/v4"
)

// __attribute__((preserve_access_index)) on a record becomes a region over
// its body (both spellings of the attribute's place), positions unchanged;
// the record may point to itself, which cc alone cannot represent.
func TestHideAccessAttribute(t *testing.T) {
	src := `struct a { int x; struct a *next; } __attribute__((preserve_access_index));
struct plain { int y; };
struct __attribute__((__preserve_access_index__)) b {
	struct b *self;
};
int f(struct a *p, struct plain *q, struct b *r) { return p->next->x + q->y + (r->self != 0); }
`
	out, regions := hideAccessAttribute("x.c", []byte(src))
	if len(out) != len(src) || strings.Count(string(out), "\n") != strings.Count(src, "\n") {
		t.Fatal("positions moved")
	}
	if strings.Contains(string(out), "preserve_access_index") || len(regions) != 2 {
		t.Fatalf("regions %v, output:\n%s", regions, out)
	}
	u, err := Parse("x.c", Options{Source: []byte(src)})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"a": true, "plain": false, "b": true}
	for l := u.AST.TranslationUnit; l != nil; l = l.TranslationUnit {
		fd := l.ExternalDeclaration.FunctionDefinition
		if fd == nil {
			continue
		}
		for _, p := range fd.Declarator.Type().(*cc.FunctionType).Parameters() {
			st := p.Type().(*cc.PointerType).Elem()
			tag := st.(*cc.StructType).Tag()
			if got := u.PreservesAccessIndex(st); got != want[tag.SrcStr()] {
				t.Errorf("struct %s: PreservesAccessIndex = %v", tag.SrcStr(), got)
			}
		}
	}
}

func TestMayHaveAccessAttribute(t *testing.T) {
	for src, want := range map[string]bool{
		"struct s { int a; } __attribute__((preserve_access_index));":       true,
		"struct __attribute__(( __preserve_access_index__ )) s { int a; };": true,
		"struct s {\n} __attribute__((\n\tpreserve_access_index\n));":       true,
		" * __builtin_preserve_access_index(&src->a.b.c));":                 false,
		"#define X preserve_access_index":                                   false,
		"":                                                                  false,
	} {
		if got := mayHaveAccessAttribute([]byte(src)); got != want {
			t.Errorf("mayHaveAccessAttribute(%q) = %v, want %v", src, got, want)
		}
	}
}

// A second #pragma once in a header (beyla's gpuevent.h has two) changes
// nothing; a second include of the header is skipped, from the cache too.
func TestPragmaOnceTwice(t *testing.T) {
	dir := t.TempDir()
	hdr := "#pragma once\n#pragma once\ntypedef struct ev { unsigned long long size; } ev_t;\n"
	if err := os.WriteFile(filepath.Join(dir, "twice.h"), []byte(hdr), 0o644); err != nil {
		t.Fatal(err)
	}
	src := "#include \"twice.h\"\n#include \"twice.h\"\nev_t e;\nint f(void) { return sizeof(e); }\n"
	path := filepath.Join(dir, "x.c")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	for i := 0; i < 2; i++ { // cold, then from the header cache
		if _, err := Parse(path, Options{Source: []byte(src)}); err != nil {
			t.Fatalf("run %d: %v", i, err)
		}
	}
}
