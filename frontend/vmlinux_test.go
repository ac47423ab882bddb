package frontend

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"modernc.org/cc/v4"
)

const miniVmlinux = `#ifndef __VMLINUX_H__
#define __VMLINUX_H__

#ifndef BPF_NO_PRESERVE_ACCESS_INDEX
#pragma clang attribute push (__attribute__((preserve_access_index)), apply_to = record)
#endif

typedef unsigned int __u32;

typedef __u32 u32;

typedef int (*handler_t)(struct handler_arg *);

struct mm_struct {
	long pgd;
};

struct files_struct {
	int count;
};

struct sched_entity {
	u32 weight;
};

struct unused_thing {
	int x;
};

enum pid_type {
	PIDTYPE_PID = 0,
	PIDTYPE_TGID = 1,
};

struct task_struct {
	int pid;
	struct sched_entity se;
	struct mm_struct *mm;
	struct files_struct *files;
	union {
		struct unused_thing *u;
		int flags;
	};
};

#ifndef BPF_NO_PRESERVE_ACCESS_INDEX
#pragma clang attribute pop
#endif

#endif /* __VMLINUX_H__ */
`

// What a program reaches stays defined; a record reached only through a
// pointer member it never names becomes a forward declaration; the rest
// is blanked with every line break kept.
func TestPruneVmlinux(t *testing.T) {
	src := []byte(miniVmlinux)
	if !isVmlinux(src) {
		t.Fatal("not recognised as vmlinux.h")
	}
	roots := map[string]bool{"task_struct": true, "mm": true, "pgd": true, "PIDTYPE_TGID": true}
	out := string(pruneVmlinux(src, roots))
	if strings.Count(out, "\n") != strings.Count(miniVmlinux, "\n") {
		t.Errorf("line breaks changed")
	}
	for _, keep := range []string{"struct mm_struct {", "struct sched_entity {", "typedef __u32 u32;", "typedef unsigned int __u32;", "struct task_struct {", "PIDTYPE_TGID = 1", "struct files_struct;", "struct unused_thing;", "#pragma clang attribute pop"} {
		if !strings.Contains(out, keep) {
			t.Errorf("pruned header lacks %q:\n%s", keep, out)
		}
	}
	for _, gone := range []string{"struct files_struct {", "struct unused_thing {", "handler_t"} {
		if strings.Contains(out, gone) {
			t.Errorf("pruned header still has %q", gone)
		}
	}
}

// A name the program builds by token pasting is invisible to pruning: the
// pruned header fails to compile, and Parse compiles with the whole one.
func TestPruneVmlinuxFallback(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "vmlinux.h"), []byte(miniVmlinux), 0o644); err != nil {
		t.Fatal(err)
	}
	src := `#include "vmlinux.h"
#define CAT(a, b) a##b
long f(struct task_struct *t) { struct CAT(files_, struct) *p = (void *)t; return p->count; }
`
	path := filepath.Join(dir, "prog.c")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Parse(path, Options{}); err != nil {
		t.Fatalf("no fallback to the whole header: %v", err)
	}
}

// TestScanIdentsMatchesRegexp: the roots' identifier scan finds what the
// regexp it replaces found.
func TestScanIdentsMatchesRegexp(t *testing.T) {
	re := regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)
	for _, src := range []string{"", "a", "1abc _x9 9_ $y z$w", "é_é x\xff\xfey", "struct task_struct *t = 0x1f;\n#include <bpf/bpf_helpers.h>\n", "a1b2__C3 _", "0xdeadbeefULL u8\"s\""} {
		var got []string
		scanIdents([]byte(src), func(w []byte) { got = append(got, string(w)) })
		var want []string
		for _, w := range re.FindAll([]byte(src), -1) {
			want = append(want, string(w))
		}
		if !slices.Equal(got, want) {
			t.Errorf("%q: got %q, want %q", src, got, want)
		}
	}
}

// A file cc refuses for a reason bpfcc rewrites (here an assertion on
// __builtin_constant_p of a const local) is retried with the pruned
// header: the whole vmlinux.h is parsed only when pruning caused the
// failure. files_struct, which the program never names, stays undefined.
func TestPruneVmlinuxKeptForLateAsserts(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "vmlinux.h"), []byte(miniVmlinux), 0o644); err != nil {
		t.Fatal(err)
	}
	src := `#include "vmlinux.h"
int f(struct task_struct *t) {
	const int n = 4;
	_Static_assert(__builtin_constant_p(n), "n is constant");
	return t->pid + n;
}
`
	path := filepath.Join(dir, "prog.c")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	u, err := Parse(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(u.lateAsserts) != 1 {
		t.Fatalf("got %d assertions left to lower, want 1", len(u.lateAsserts))
	}
	defined := map[string]bool{}
	walkCC(reflect.ValueOf(u.AST.TranslationUnit), func(n any) bool {
		if s, ok := n.(*cc.StructOrUnionSpecifier); ok && s.Case == cc.StructOrUnionSpecifierDef {
			defined[s.Token.SrcStr()] = true
		}
		return true
	})
	if !defined["task_struct"] {
		t.Fatalf("task_struct not defined; defined: %v", defined)
	}
	if defined["files_struct"] {
		t.Errorf("files_struct defined: the retry parsed the whole header")
	}
}

// A header included by absolute path, or with -include, names roots too:
// its types stay in the pruned vmlinux.h (not only their forward
// declarations, which then made the pruned parse fail or, through a
// kfunc declaration, a FWD in the BTF).
func TestPruneVmlinuxAbsoluteHeaders(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "vmlinux.h"), miniVmlinux)
	hdr := filepath.Join(dir, "abs.h")
	// Read first with -include, it includes vmlinux.h itself.
	writeFile(t, hdr, "#include \""+filepath.Join(dir, "vmlinux.h")+"\"\nstatic inline int count_of(struct files_struct *f) { return f->count; }\n")
	for name, c := range map[string]struct {
		src      string
		includes []string
	}{
		"absolute": {"#include \"vmlinux.h\"\n#include \"" + hdr + "\"\nint g(void *p) { return count_of(p); }\n", nil},
		"-include": {"#include \"vmlinux.h\"\nint g(void *p) { return count_of(p); }\n", []string{hdr}},
	} {
		path := filepath.Join(dir, "prog.c")
		writeFile(t, path, c.src)
		u, err := Parse(path, Options{Includes: c.includes})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		defined := map[string]bool{}
		walkCC(reflect.ValueOf(u.AST.TranslationUnit), func(n any) bool {
			if s, ok := n.(*cc.StructOrUnionSpecifier); ok && s.Case == cc.StructOrUnionSpecifierDef {
				defined[s.Token.SrcStr()] = true
			}
			return true
		})
		if !defined["files_struct"] || defined["unused_thing"] {
			t.Errorf("%s: files_struct defined %v, unused_thing %v: want the pruned header with files_struct", name, defined["files_struct"], defined["unused_thing"])
		}
	}
}
