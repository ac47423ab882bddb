package bind

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bpfcc/bpfcc/frontend"
)

const handlersSrc = `#include <bpfcc.h>
__u64 total;
static __attribute__((noinline)) int add(__u64 *p, long a) { __sync_fetch_and_add(p, a); return 0; }
static __always_inline int add2(__u64 *p, long b) { return add(p, b); }
static int st(struct pt_regs *ctx, int a) { return a; }
inline int inl(struct pt_regs *ctx, int a) { return a; }
__attribute__((noinline)) int noinl(struct pt_regs *ctx, int a) { return a; }
int called(struct pt_regs *ctx, int a) { return a; }
int addr_taken(struct pt_regs *ctx, int a) { return a; }
int notctx(__u64 *p, int a) { return a; }
int voidctx(void *ctx, int a) { return called(ctx, a); }
int voidother(void *p, int a) { return a; }
int handler(struct pt_regs *ctx, int a, long b) { return add2(&total, a + b); }
typedef struct pt_regs myregs;
int regs(const myregs *ctx, int a) { return a; }
void *table[] = { addr_taken };
SEC("uprobe")
int h(struct pt_regs *ctx) { return add(&total, PT_REGS_PARM1(ctx)); }
char LICENSE[] SEC("license") = "GPL";
`

// TestHelpersStayHelpers: with --load PROBE, only functions that look like
// handlers (external, not inline/noinline, not called, context pointer
// first) are bound; static, inline, noinline and called functions with two
// or more parameters stay helpers (they were rewritten into programs).
func TestHelpersStayHelpers(t *testing.T) {
	u, err := frontend.Parse("h.c", frontend.Options{Source: []byte(handlersSrc), CPU: 3})
	if err != nil {
		t.Fatal(diagText(err))
	}
	sh := frontend.Describe(u)
	fs := funcIndex(sh)
	var got []string
	for _, name := range slices.Sorted(maps.Keys(fs)) {
		if isHandler(fs[name]) {
			got = append(got, name)
		}
	}
	if strings.Join(got, " ") != "h handler regs voidctx" {
		t.Errorf("handlers = %q, want h handler regs voidctx", got)
	}
	if f := fs["add"]; !f.Static || !f.Inline || f.CtxFirst || !slices.Equal(f.CalledBy, []string{"add2", "h"}) {
		t.Errorf("add = %+v", f)
	}
	if f := fs["inl"]; !f.Inline || len(f.CalledBy) > 0 {
		t.Errorf("inl = %+v", f)
	}
	if f := fs["addr_taken"]; f.Static || !f.CtxFirst || !slices.Equal(f.CalledBy, []string{"table"}) {
		t.Errorf("addr_taken = %+v", f)
	}
	if f := fs["called"]; !slices.Equal(f.CalledBy, []string{"voidctx"}) {
		t.Errorf("called = %+v", f)
	}

	// Bind with DefaultProbe binds only the handlers (and the bare
	// uprobe section); helpers stay out of the result.
	bin := buildTarget(t)
	sub := &frontend.Shape{}
	for _, f := range sh.Funcs {
		switch f.Name {
		case "add", "handler", "h", "notctx":
			sub.Funcs = append(sub.Funcs, f)
		}
	}
	hs, err := Bind(sub, Options{Binary: bin, DefaultProbe: "params"})
	if err != nil {
		t.Fatal(diagText(err))
	}
	var names []string
	for _, h := range hs {
		names = append(names, h.Name)
	}
	if strings.Join(names, " ") != "h handler" {
		t.Errorf("bound %q, want h handler", names)
	}
}

// TestNotELF: a non-ELF -x says so (it was "bad magic number '[35 33 47
// 98]' in record"), naming no internal package.
func TestNotELF(t *testing.T) {
	script := filepath.Join(t.TempDir(), "run.sh")
	os.WriteFile(script, []byte("#!/bin/sh\necho hi\n"), 0o755)
	if err := CheckELF(script); err == nil || !strings.Contains(err.Error(), "not an ELF file") {
		t.Errorf("CheckELF(script) = %v", err)
	}
	if err := CheckELF("/proc/self/exe"); err != nil {
		t.Errorf("CheckELF(self) = %v", err)
	}
	_, err := Bind(shape(map[string][]string{"e": {"ctx", "a"}}, nil, "e: params a"), Options{Binary: script})
	if txt := diagText(err); !strings.Contains(txt, "not an ELF file") || strings.Contains(txt, "dwarfvars") {
		t.Errorf("Bind with a script: %q", txt)
	}
}

// TestDWARFErrorsNameNoPackage: dwarfvars' own errors read as the user's
// (no "dwarfvars: " prefix to strip), and names with invalid UTF-8 print
// with U+FFFD.
func TestDWARFErrorsNameNoPackage(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "gone")
	_, err := Bind(shape(map[string][]string{"e": {"ctx", "a"}}, nil, "e: params a"), Options{Binary: missing})
	if txt := diagText(err); !strings.Contains(txt, "no such file") || strings.Contains(txt, "dwarfvars") {
		t.Errorf("Bind with a missing binary: %q", txt)
	}
	_, err = Bind(shape(map[string][]string{"e": {"ctx", "a"}}, nil, "e: "+missing+"\xff:main a"), Options{})
	if txt := diagText(err); !strings.Contains(txt, "\uFFFD") || !utf8.ValidString(txt) {
		t.Errorf("invalid UTF-8 kept: %q", txt)
	}
}
