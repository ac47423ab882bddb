package lower

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bpfcc/bpfcc/diag"
	"github.com/bpfcc/bpfcc/frontend"
	"github.com/bpfcc/bpfcc/ir"
)

func lowerSource(t *testing.T, src string) (*ir.Module, error) {
	t.Helper()
	u, err := frontend.Parse("t.c", frontend.Options{Source: []byte(src)})
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	m, _, err := Lower(u, Options{OptLevel: 2, CPU: 3})
	return m, err
}

func funcText(t *testing.T, m *ir.Module, name string) string {
	t.Helper()
	for _, f := range m.Funcs {
		if f.Name == name {
			return f.String()
		}
	}
	t.Fatalf("no function %q in module", name)
	return ""
}

// Every corpus program lowers into IR that passes the checker.
func TestCorpusLowersToValidIR(t *testing.T) {
	files, _ := filepath.Glob("../tests/testdata/*.c")
	if len(files) == 0 {
		t.Skip("no corpus")
	}
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var defs, dirs []string
		for _, line := range strings.Split(string(src), "\n") {
			if rest, ok := strings.CutPrefix(line, "// CFLAGS:"); ok {
				for _, f := range strings.Fields(rest) {
					if d, ok := strings.CutPrefix(f, "-D"); ok {
						defs = append(defs, d)
					}
					if d, ok := strings.CutPrefix(f, "-I"); ok {
						dirs = append(dirs, filepath.Join(filepath.Dir(path), d))
					}
				}
			}
		}
		u, err := frontend.Parse(path, frontend.Options{Defines: defs, IncludeDirs: dirs})
		if err != nil {
			t.Errorf("%s: parse: %v", path, err)
			continue
		}
		m, _, err := Lower(u, Options{OptLevel: 2, CPU: 3})
		if err != nil {
			t.Errorf("%s: lower: %v", path, err)
			continue
		}
		for _, f := range m.Funcs {
			if err := ir.Check(f); err != nil {
				t.Errorf("%s: %v", path, err)
			}
		}
	}
}

// Widening an unsigned 32-bit load is free (the load zero-extends), which
// keeps ctx->data usable as a packet pointer; widening a signed int is not.
func TestWideningUsesFacts(t *testing.T) {
	m, err := lowerSource(t, `
struct md { unsigned int data; int s; };
long f(struct md *c) { long a = (long)c->data; long b = c->s; return a + b; }`)
	if err != nil {
		t.Fatal(err)
	}
	text := funcText(t, m, "f")
	if n := strings.Count(text, "zext32"); n != 0 {
		t.Errorf("unsigned load widened with %d zext32:\n%s", n, text)
	}
	if !strings.Contains(text, "sext32") {
		t.Errorf("signed int widened without sext32:\n%s", text)
	}
}

func TestConstantFoldingAndSideEffects(t *testing.T) {
	m, err := lowerSource(t, `
int f(int x) { int i; for (i = 0, x = 3; i < 2; i++) ; return (1 << 4) + sizeof(long) + x + i; }`)
	if err != nil {
		t.Fatal(err)
	}
	text := funcText(t, m, "f")
	// "i = 0, x = 3" must not be dropped although cc gives it a value.
	if !strings.Contains(text, "mov 3") {
		t.Errorf("assignment with a constant value was dropped:\n%s", text)
	}
	if !strings.Contains(text, "24") {
		t.Errorf("(1<<4)+sizeof(long) not folded to 24:\n%s", text)
	}
}

func TestPointerDecrementAddsNegative(t *testing.T) {
	m, err := lowerSource(t, `int f(void) { int a[4] = {1,2,3,4}; int *p = &a[3]; p--; p -= 1; return *p; }`)
	if err != nil {
		t.Fatal(err)
	}
	text := funcText(t, m, "f")
	if strings.Contains(text, "= sub r") {
		t.Errorf("pointer arithmetic uses sub (the verifier rejects it on stack pointers):\n%s", text)
	}
}

func TestDiagnostics(t *testing.T) {
	cases := []struct{ src, want string }{
		{`int f(int n) { return n ? n * f(n - 1) : 0; }
int __attribute__((section("socket"))) g(void *c) { return f(3); }`, "recursion"},
		{`int f(void) { float x = 1; return (int)x; }`, "floating point"},
		{`int f(int n) { int a[n]; a[0] = 1; return a[0]; }`, "variable-length array"},
		{`static long (*bpf_map_lookup_elem)(void *m, const void *k) = (void *) 1;
long f(void) { void *p = &bpf_map_lookup_elem; return (long)p; }`, "address of BPF helper"},
		{`int f(int x) { return x / 0; }`, "division by zero"},
		{`int x; void *p __attribute__((section(".bss.p"))) = &x;`, "holds addresses"},
		{`int v __attribute__((section(".BTF.ext"))) = 1;`, "reserved"},
		{`int g(void); int v = g();`, "initializer of a global must be a constant or the address"},
		{`static int g(int); int f(int x) { return g(x); }`, "neither a BPF helper nor defined"},
		{`int f(int x) { asm volatile("%0 = 1" : "=x"(x)); return x; }`, "asm output constraint \"=x\" is not supported"},
		{`int f(int x) { asm volatile("r0 = %[k]" :: [k]"x"(x)); return x; }`, "constraint \"x\" is not supported"},
	}
	for _, c := range cases {
		_, err := lowerSource(t, c.src)
		dl, ok := err.(diag.List)
		if !ok || len(dl) == 0 {
			t.Errorf("%q: got %v, want a diagnostic containing %q", c.src, err, c.want)
			continue
		}
		if !strings.Contains(dl.Error(), c.want) {
			t.Errorf("%q: got %q, want %q", c.src, dl.Error(), c.want)
		}
		for _, d := range dl {
			if d.Line == 0 {
				t.Errorf("%q: diagnostic without a line: %v", c.src, d)
			}
		}
	}
}

// An extern declared twice is one extern (found by the mutation test: it
// reached the ELF writer twice).
func TestExternDeclaredTwice(t *testing.T) {
	m, err := lowerSource(t, `extern int CONFIG_HZ __attribute__((section(".kconfig")));
extern int CONFIG_HZ __attribute__((section(".kconfig")));
int __attribute__((section("socket"))) f(void *c) { return CONFIG_HZ; }`)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, g := range m.Globals {
		if g.Extern && g.Name == "CONFIG_HZ" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d externs named CONFIG_HZ, want 1", n)
	}
}

// Section names are libbpf's business: a name libbpf knows (its "+" entries
// also alone or with "/TARGET") lowers silently, any other name with a
// warning, never an error (clang accepts any section).
func TestProgramSections(t *testing.T) {
	known := []string{"freplace", "?freplace", "freplace/f", "tracepoint", "?tracepoint", "sk_reuseport/migrate",
		"kprobe.session/f*", "raw_tracepoint.w/x", "xdp/devmap", "cgroup/getpeername_unix", "sk_skb/verdict"}
	unknown := []string{"xdp_drop", "sk_skb1", "tracepointx", "dummy_tracepoint", "cls_test", "abc"}
	for _, sec := range append(known, unknown...) {
		src := `int __attribute__((section("` + sec + `"))) f(void *c) { return 0; }`
		u, err := frontend.Parse("t.c", frontend.Options{Source: []byte(src)})
		if err != nil {
			t.Fatal(err)
		}
		m, warns, err := Lower(u, Options{OptLevel: 2, CPU: 3})
		if err != nil {
			t.Errorf("%s: %v", sec, err)
			continue
		}
		if got := m.Funcs[0].Section; got != sec {
			t.Errorf("%s: section %q", sec, got)
		}
		warned := strings.Contains(diag.List(warns).Error(), "unknown program section")
		if want := slices.Contains(unknown, sec); warned != want {
			t.Errorf("%s: warned %v, want %v (%v)", sec, warned, want, warns)
		}
	}
}

// A variable may live in any section, as with clang; one libbpf does not
// read as data gets a warning, one libbpf reads (.struct_ops, an arena's
// .addr_space.1) or another loader does (libxdp's .xdp_run_order,
// udev-hid-bpf's .hid_bpf_config) none.
func TestDataSections(t *testing.T) {
	for sec, warn := range map[string]bool{"foo": true, ".struct_ops": false, ".struct_ops.link": false, ".addr_space.1": false, ".data.x": false, ".xdp_run_order": false, ".hid_bpf_config": false} {
		u, err := frontend.Parse("t.c", frontend.Options{Source: []byte(`int v __attribute__((section("` + sec + `"))) = 1;`)})
		if err != nil {
			t.Fatal(err)
		}
		m, warns, err := Lower(u, Options{OptLevel: 2, CPU: 3})
		if err != nil {
			t.Errorf("%s: %v", sec, err)
			continue
		}
		if m.Globals[0].Section != sec {
			t.Errorf("%s: section %q", sec, m.Globals[0].Section)
		}
		if got := strings.Contains(diag.List(warns).Error(), "does not read as data"); got != warn {
			t.Errorf("%s: warned %v, want %v", sec, got, warn)
		}
	}
}

// A static always-inline function that has a program's section through
// typeof() (BPF_PROG2's inner function) is no program: it may take a
// struct by value.
func TestInlineFunctionWithSectionTakesStruct(t *testing.T) {
	_, err := lowerSource(t, `struct pair { int a, b; };
__attribute__((section("fentry/f"))) int prog(unsigned long long *ctx);
static inline __attribute__((always_inline)) typeof(prog(0)) inner(unsigned long long *ctx, struct pair p) { return p.a + p.b; }
int prog(unsigned long long *ctx) { struct pair p = { (int)ctx[0], 2 }; return inner(ctx, p); }`)
	if err != nil {
		t.Fatal(err)
	}
}

func TestStrcmpOfLiteralsFolds(t *testing.T) {
	m, err := lowerSource(t, `int f(void) { return __builtin_strcmp(">=", "==") * 4 + __builtin_strcmp("a", "a") * 2 + __builtin_strcmp("a", "b"); }`)
	if err != nil {
		t.Fatal(err)
	}
	// 1*4 + 0*2 - 1
	if text := funcText(t, m, "f"); !strings.Contains(text, "ret 3") {
		t.Errorf("strcmp of literals not folded:\n%s", text)
	}
	// Of a variable: left to codegen, which folds it once inlining binds
	// the variable to a literal and reports it otherwise (corpus
	// file_ids, reject strcmp_not_literal).
	m, err = lowerSource(t, `int f(const char *s) { return __builtin_strcmp(s, "a"); }`)
	if err != nil {
		t.Fatal(err)
	}
	if text := funcText(t, m, "f"); !strings.Contains(text, ir.StrcmpSym) {
		t.Errorf("strcmp of a variable is no %s call:\n%s", ir.StrcmpSym, text)
	}
}

// A const integer local with a constant initializer is a constant where it
// is read: a memset size (syscall.c's attr_sz), an asm "i" operand.
func TestConstLocalIsConstant(t *testing.T) {
	m, err := lowerSource(t, `int f(char *p) { const int n = sizeof(long) * 2; __builtin_memset(p, 0, n);
	asm volatile("r0 = %[k]" :: [k] "i"(n)); return p[0]; }`)
	if err != nil {
		t.Fatal(err)
	}
	if text := funcText(t, m, "f"); strings.Contains(text, "__builtin_trap") || strings.Contains(text, "late") {
		t.Errorf("n is no constant:\n%s", text)
	}
}

// An extern __kconfig or __ksym variable nothing refers to is not in the
// module, as clang emits no unused declaration (bpftop's pid_iter.bpf.c
// declares bpf_prog_fops and never uses it: cilium/ebpf refused the
// object for the typed __ksym). One that code, inline asm or data refers
// to stays.
func TestUnusedKernelExternsDropped(t *testing.T) {
	m, err := lowerSource(t, `
extern const void *unused_fops __attribute__((section(".ksyms"))) __attribute__((weak));
extern int CONFIG_UNUSED __attribute__((section(".kconfig"))) __attribute__((weak));
extern int CONFIG_HZ __attribute__((section(".kconfig")));
extern const void used_sym __attribute__((section(".ksyms")));
extern const void asm_sym __attribute__((section(".ksyms")));
extern const void data_sym __attribute__((section(".ksyms")));
const void *p = &data_sym;
int __attribute__((section("socket"))) f(void *c)
{
	long r;
	asm volatile("r0 = %[s] ll" : "=r"(r) : [s] "i"(&asm_sym));
	return CONFIG_HZ + (&used_sym != 0) + r;
}`)
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, g := range m.Globals {
		if g.Extern {
			have[g.Name] = true
		}
	}
	for name, want := range map[string]bool{"unused_fops": false, "CONFIG_UNUSED": false, "CONFIG_HZ": true, "used_sym": true, "asm_sym": true, "data_sym": true} {
		if have[name] != want {
			t.Errorf("extern %s in the module: %v, want %v", name, have[name], want)
		}
	}
}

// A GPL-only helper in a program without a GPL-compatible license is a
// warning, as clang compiles it: the kernel refuses to load the program,
// but a loader may set the license.
// A file with no license may be linked with one that has it (bpftool gen
// object): the warning says so.
func TestGPLHelperWithoutLicenseWarns(t *testing.T) {
	for lic, want := range map[string]string{
		"": "declares no license: unless it is linked",
		`char L[] SEC("license") = "Proprietary";` + "\n": `license is "Proprietary"`,
	} {
		u, err := frontend.Parse("t.c", frontend.Options{Source: []byte(`#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
` + lic + `SEC("socket") int f(struct __sk_buff *skb) { bpf_printk("len %u", skb->len); return 0; }`)})
		if err != nil {
			t.Fatal(err)
		}
		_, warns, err := Lower(u, Options{OptLevel: 2, CPU: 3})
		if err != nil {
			t.Fatalf("lowering failed: %v", err)
		}
		text := diag.List(warns).Error()
		if !strings.Contains(text, "bpf_trace_printk is GPL-only") || !strings.Contains(text, "t.c:3:") && !strings.Contains(text, "t.c:4:") || !strings.Contains(text, want) {
			t.Errorf("license %q: warnings %q: want the GPL-only helper named at its call, and %q", lic, text, want)
		}
	}
}

// A map declared extern (in a header) and then defined is the one map
// the definition makes, in ".maps" and in legacy SEC("maps") alike
// (opentelemetry-ebpf-profiler's extmaps.h): the extern was a second map
// of the same name, an internal error in the ELF writer.
func TestExternThenDefinedMap(t *testing.T) {
	for name, src := range map[string]string{
		"btf": `#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
struct m_t { __uint(type, BPF_MAP_TYPE_ARRAY); __uint(max_entries, 1); __type(key, int); __type(value, long); };
extern struct m_t m SEC(".maps");
struct m_t m SEC(".maps");
SEC("socket") int prog(void *ctx) { int k = 0; long *v = bpf_map_lookup_elem(&m, &k); return v ? (int)*v : 0; }`,
		"legacy": `typedef struct bpf_map_def { unsigned int type, key_size, value_size, max_entries, map_flags; } bpf_map_def;
extern bpf_map_def m;
bpf_map_def __attribute__((section("maps"), used)) m = { .type = 2, .key_size = 4, .value_size = 8, .max_entries = 1 };
static void *(*lookup)(void *map, void *key) = (void *)1;
__attribute__((section("socket"), used)) int prog(void *ctx) { int k = 0; long *v = lookup(&m, &k); return v ? (int)*v : 0; }`,
	} {
		m, err := lowerSource(t, src)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		n := 0
		for _, mp := range m.Maps {
			if mp.Name == "m" {
				n++
				if mp.Extern {
					t.Errorf("%s: map m is extern", name)
				}
			}
		}
		if n != 1 {
			t.Errorf("%s: %d maps named m, want 1", name, n)
		}
	}
}

// Below v3, a fetching atomic on a 64-bit object compiles and one on a
// 4-byte object is an error naming the fix, as clang: its 32-bit forms are
// ALU32 instructions.
func TestAtomicsBelowV3(t *testing.T) {
	for _, tc := range []struct {
		typ string
		err bool
	}{{"unsigned long", false}, {"unsigned int", true}} {
		u, err := frontend.Parse("t.c", frontend.Options{Source: []byte(`
int f(` + tc.typ + ` *p) { return __sync_val_compare_and_swap(p, 0, 1) + __sync_fetch_and_or(p, 2); }`)})
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = Lower(u, Options{OptLevel: 2, CPU: 1})
		if got := err != nil; got != tc.err {
			t.Errorf("%s at v1: error %v, want error %v", tc.typ, err, tc.err)
		}
		if err != nil && !strings.Contains(err.Error(), "t.c:2:") || err != nil && !strings.Contains(err.Error(), "4-byte object needs -mcpu=v3") {
			t.Errorf("%s at v1: %v: want the call's position and the reason", tc.typ, err)
		}
	}
}
