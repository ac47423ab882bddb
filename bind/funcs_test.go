package bind

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bpfcc/bpfcc/frontend"
	"github.com/bpfcc/bpfcc/lower"
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
	fs := Funcs(u)
	var got []string
	for _, name := range sortedNames(lower.Inspect(u).Params) {
		if fs[name].IsHandler() {
			got = append(got, name)
		}
	}
	if strings.Join(got, " ") != "h handler regs voidctx" {
		t.Errorf("handlers = %q, want h handler regs voidctx; funcs %+v", got, fs)
	}
	if f := fs["add"]; !f.Static || !f.Inline || !f.Called || f.CtxFirst {
		t.Errorf("add = %+v", f)
	}
	if f := fs["inl"]; !f.Inline || f.Called {
		t.Errorf("inl = %+v", f)
	}
	if f := fs["addr_taken"]; !f.Called || f.Static || !f.CtxFirst {
		t.Errorf("addr_taken = %+v", f)
	}

	// Resolve with DefaultProbe binds only the handlers (and the bare
	// uprobe section); helpers stay out of the result.
	bin := buildTarget(t)
	sh := shape(map[string][]string{"add": {"p", "a"}, "handler": {"ctx", "a"}, "h": {"ctx"}, "notctx": {"p", "a"}}, map[string]string{"h": "uprobe"})
	hs, err := Resolve(sh, Options{Binary: bin, DefaultProbe: "params", Funcs: map[string]Func{
		"add": fs["add"], "handler": fs["handler"], "h": fs["h"], "notctx": fs["notctx"]}})
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

// TestUserText: messages name no internal package, carry valid UTF-8, and
// a non-ELF -x says so (it was "bad magic number '[35 33 47 98]' in record").
func TestUserText(t *testing.T) {
	if got := UserText("handler \"h\": dwarfvars: open x: no such file, name f\xffo"); got != "handler \"h\": open x: no such file, name f\uFFFDo" {
		t.Errorf("UserText = %q", got)
	}
	script := filepath.Join(t.TempDir(), "run.sh")
	os.WriteFile(script, []byte("#!/bin/sh\necho hi\n"), 0o755)
	if err := CheckELF(script); err == nil || !strings.Contains(err.Error(), "not an ELF file") {
		t.Errorf("CheckELF(script) = %v", err)
	}
	if err := CheckELF("/proc/self/exe"); err != nil {
		t.Errorf("CheckELF(self) = %v", err)
	}
	_, err := Resolve(shape(map[string][]string{"e": {"ctx", "a"}}, nil, "e: params a"), Options{Binary: script})
	if txt := diagText(err); !strings.Contains(txt, "not an ELF file") || strings.Contains(txt, "dwarfvars") {
		t.Errorf("Resolve with a script: %q", txt)
	}
}
