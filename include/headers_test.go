package include

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"modernc.org/cc/v4"
)

// preprocess returns src after preprocessing with the compat headers only,
// blanks removed, so tests can look at what the macros expand to.
func preprocess(t *testing.T, src string) string {
	t.Helper()
	abi, err := cc.NewABI("linux", "amd64")
	if err != nil {
		t.Fatal(err)
	}
	cfg := &cc.Config{
		ABI: abi, FS: hostFS{hidden: libbpfDirs}, FSOnly: true,
		IncludePaths: IncludePaths(nil), SysIncludePaths: SysIncludePaths(nil),
	}
	var b strings.Builder
	if err := cc.Preprocess(cfg, []cc.Source{
		{Name: "<predefined>", Value: PredefinedFor("amd64", 3)},
		{Name: "prog.c", Value: src},
	}, &b); err != nil {
		t.Fatalf("preprocess: %v", err)
	}
	out := b.String()
	if i := strings.LastIndex(out, "MARK"); i >= 0 {
		out = out[i:]
	}
	return strings.Join(strings.Fields(out), "")
}

func TestPrintkExpansion(t *testing.T) {
	const pre = "#include <linux/types.h>\n#include <bpf/bpf_helpers.h>\nMARK\n"
	for _, tc := range []struct{ call, want, not string }{
		{`bpf_printk("a");`, `bpf_trace_printk(____fmt,sizeof(____fmt));`, "vprintk"},
		{`bpf_printk("a %d", x);`, `bpf_trace_printk(____fmt,sizeof(____fmt),x);`, "vprintk"},
		{`bpf_printk("%d%d%d", x, y, z);`, `bpf_trace_printk(____fmt,sizeof(____fmt),x,y,z);`, "vprintk"},
		{`bpf_printk("%d%d%d%d", w, x, y, z);`, `___param[4];___param[0]=w;___param[0+1]=x;___param[0+1+1]=y;___param[0+1+1+1]=z;bpf_trace_vprintk(___fmt,sizeof(___fmt),___param,sizeof(___param));`, "bpf_trace_printk"},
		{`bpf_printk("x");`, `staticconstchar____fmt[]="x";`, ""},
		{`BPF_SNPRINTF(out, 8, "%d", v);`, `bpf_snprintf(out,8,___fmt,___param,sizeof(___param));`, ""},
	} {
		got := preprocess(t, pre+tc.call)
		if !strings.Contains(got, tc.want) || (tc.not != "" && strings.Contains(got, tc.not)) {
			t.Errorf("%s expands to\n%s\nwant it to contain %s (and not %q)", tc.call, got, tc.want, tc.not)
		}
	}
	// BPF_NO_GLOBAL_DATA keeps the format on the stack.
	got := preprocess(t, "#define BPF_NO_GLOBAL_DATA\n"+pre+`bpf_printk("x");`)
	if strings.Contains(got, "static") {
		t.Errorf("with BPF_NO_GLOBAL_DATA: %s", got)
	}
}

func TestTracingExpansion(t *testing.T) {
	const pre = "#include <linux/types.h>\n#include <bpf/bpf_tracing.h>\nMARK\n"
	got := preprocess(t, pre+"int BPF_KPROBE(f, int a, char *b) { return a; }")
	for _, want := range []string{
		"f(structpt_regs*ctx);",
		"____f(structpt_regs*ctx,inta,char*b);",
		"return____f(ctx,(void*)(((structpt_regs*)(ctx))->rdi),(void*)(((structpt_regs*)(ctx))->rsi));",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("BPF_KPROBE expands to\n%s\nwant %s", got, want)
		}
	}
	got = preprocess(t, pre+"int BPF_KRETPROBE(g) { return 0; }")
	if !strings.Contains(got, "return____g(ctx);") || !strings.Contains(got, "____g(structpt_regs*ctx)") {
		t.Errorf("BPF_KRETPROBE without args expands to %s", got)
	}
	got = preprocess(t, "#define __VMLINUX_H__\n"+pre+"PT_REGS_PARM1(c) PT_REGS_RC(c) PT_REGS_PARM4_SYSCALL(c)")
	if want := "(((structpt_regs*)(c))->di)(((structpt_regs*)(c))->ax)(((structpt_regs*)(c))->r10)"; got != "MARK"+want {
		t.Errorf("vmlinux.h register names: %s, want MARK%s", got, want)
	}
}

// compatOnly type-checks a program against the embedded headers only.
func compatOnly(t *testing.T, src string) {
	t.Helper()
	mustTranslate(t, src, false)
}

func TestHelpersHeader(t *testing.T) {
	compatOnly(t, `
#include <linux/types.h>
#include <bpf/bpf_helpers.h>
struct s { int a; long b; };
_Static_assert(sizeof(struct bpf_map_def) == 20, "bpf_map_def");
_Static_assert(offsetof(struct s, b) == 8, "offsetof");
_Static_assert(KERNEL_VERSION(5, 15, 300) == (5 << 16) + (15 << 8) + 255, "KERNEL_VERSION");
_Static_assert(___bpf_narg() == 0 && ___bpf_narg(a) == 1 && ___bpf_narg(a, b, c, d, e, f, g, h, i, j, k, l) == 12, "narg");
_Static_assert(LIBBPF_PIN_BY_NAME == 1 && TRI_MODULE == 2, "enums");
struct { __uint(type, 1); __ulong(map_extra, 0x100000000UL); } m SEC(".maps");
extern int LINUX_KERNEL_VERSION __kconfig;
extern int bpf_prog_active __ksym __weak;
static __noinline int f(int x) { return likely(x) + unlikely(!x); }
__hidden int g(struct s *p) {
	struct s *q = container_of(&p->b, struct s, b);
	barrier();
	barrier_var(p);
	return q->a + f(1) + (NULL == 0);
}
SEC("tc") int prog(struct __sk_buff *skb) { bpf_tail_call_static(skb, &m, 0); return g(0); }
`)
}

func TestEndianHeader(t *testing.T) {
	compatOnly(t, `
#include <linux/types.h>
#include <bpf/bpf_endian.h>
_Static_assert(__bpf_constant_htons(0x1234) == 0x3412, "htons");
_Static_assert(__bpf_constant_ntohl(0x12345678) == 0x78563412, "ntohl");
_Static_assert(__bpf_constant_cpu_to_be64(0x0102030405060708ULL) == 0x0807060504030201ULL, "be64");
_Static_assert(bpf_htons(0x0800) == 0x0008, "htons constant");
_Static_assert(bpf_htonl(1) == 0x01000000, "htonl constant");
_Static_assert(sizeof(__bpf_htons(1)) == 2 && sizeof(__bpf_htonl(1)) == 4 && sizeof(bpf_be64_to_cpu(1)) == 8, "widths");
int f(__u16 p, __u32 a, __u64 b) {
	switch (p) { case bpf_htons(0x86dd): return 1; }
	return bpf_ntohs(p) + bpf_ntohl(a) + bpf_cpu_to_be64(b);
}
`)
}

func TestCoreReadHeader(t *testing.T) {
	// The values are CO-RE relocations the loader answers: here only that
	// every macro expands to C that type-checks, with the result types
	// libbpf's header gives. tests/testdata/core_reloc.c runs them.
	compatOnly(t, `
#include <linux/types.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
struct task { struct task *parent; int pid; char comm[16]; struct { int x; } sub; unsigned flags : 3; int sflags : 5; };
enum e { A = 1, B = 2 };
int f(struct task *t) {
	char comm[16];
	int pid = BPF_CORE_READ(t, parent, parent, parent, pid);
	struct task *p = BPF_CORE_READ(t, parent);
	int x = BPF_CORE_READ(t, sub.x);
	BPF_CORE_READ_INTO(&pid, t, parent, pid);
	BPF_CORE_READ_STR_INTO(&comm, t, parent, comm);
	BPF_PROBE_READ_USER_INTO(&x, t, sub.x);
	_Static_assert(sizeof(BPF_CORE_READ(t, parent, comm[0])) == 1, "result type");
	return pid + x + (p != 0) + bpf_core_field_size(t->comm) + bpf_core_field_size(struct task, comm) +
		bpf_core_field_offset(t->pid) + bpf_core_field_offset(struct task, pid) +
		bpf_core_field_exists(t->pid) + bpf_core_type_exists(struct task) + bpf_core_type_size(struct task) +
		bpf_core_type_matches(struct task) + bpf_core_enum_value_exists(enum e, A) + bpf_core_enum_value(enum e, B) +
		bpf_core_type_id_local(struct task) + bpf_core_type_id_kernel(struct task) +
		BPF_CORE_READ_BITFIELD_PROBED(t, flags) + BPF_CORE_READ_BITFIELD(t, sflags);
}
`)
}

func TestTracingHeader(t *testing.T) {
	compatOnly(t, `
#include <linux/types.h>
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
_Static_assert(__builtin_offsetof(struct pt_regs, rdi) == 14 * 8, "uapi pt_regs");
int BPF_KPROBE(k6, long a, long b, long c, long d, long e) { return a + b + c + d + e; }
int BPF_KPROBE(k0) { return PT_REGS_PARM6(ctx) + PT_REGS_PARM6_CORE(ctx); }
int BPF_KSYSCALL(sys_openat, int dfd, const char *path, int flags, int mode) { return dfd + flags + mode; }
int BPF_PROG(fentry_f, struct pt_regs *r, long x) { return x; }
int BPF_URETPROBE(ur, int ret) { return ret; }
int ip(struct pt_regs *ctx) {
	unsigned long a, b;
	BPF_KPROBE_READ_RET_IP(a, ctx);
	BPF_KRETPROBE_READ_RET_IP(b, ctx);
	return a + b + PT_REGS_PARM1_SYSCALL(PT_REGS_SYSCALL_REGS(ctx));
}
`)
	// Only x86-64 is supported; another target is a compile-time error.
	abi, _ := cc.NewABI("linux", "amd64")
	cfg := &cc.Config{ABI: abi, FS: hostFS{hidden: libbpfDirs}, FSOnly: true,
		IncludePaths: IncludePaths(nil), SysIncludePaths: SysIncludePaths(nil)}
	_, err := cc.Translate(cfg, []cc.Source{
		{Name: "<predefined>", Value: PredefinedFor("arm64", 3)},
		{Name: "<builtin>", Value: cc.Builtin},
		{Name: "prog.c", Value: "#include <linux/types.h>\n#include <bpf/bpf_tracing.h>\nstruct pt_regs { long x; };\nlong f(struct pt_regs *ctx) { return PT_REGS_PARM1(ctx); }\n"},
	})
	if err == nil || !strings.Contains(err.Error(), "supports_only___TARGET_ARCH_x86") {
		t.Errorf("arm64 PT_REGS_PARM1: err = %v", err)
	}
}

func TestBpfccHeader(t *testing.T) {
	prog := `
#include <bpfcc.h>
BPFCC_HIST(latency, 65);
struct event { __u32 pid; char comm[16]; };
BPFCC_OUTPUT(events, struct event);
_Static_assert(latency_hist_buckets == 65, "buckets");
SEC("kprobe/f")
int BPF_KPROBE(f, __u64 v)
{
	struct event e = { .pid = bpf_get_current_pid_tgid() >> 32 };
	__u32 b = bpfcc_log2(v);
	BPFCC_HIST_ADD(latency, v);
	bpf_get_current_comm(e.comm, sizeof(e.comm));
	return bpfcc_output(events, &e) + b;
}
`
	for _, lib := range []bool{false, true} {
		if lib && !libbpfInstalled() {
			continue
		}
		ast := mustTranslate(t, prog, lib)
		for _, name := range []string{"latency_hist", "events", "events_bpfcc_event", "bpfcc_log2"} {
			if len(ast.Scope.Nodes[name]) == 0 {
				t.Errorf("libbpf=%v: %s not declared", lib, name)
			}
		}
	}
}

// TestBpfccLog2 runs bpfcc_log2 and the byte swaps natively with the host C
// compiler, where there is one, against the definition.
func TestBpfccLog2(t *testing.T) {
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("no gcc")
	}
	dir := t.TempDir()
	if err := os.CopyFS(dir, Files()); err != nil {
		t.Fatal(err)
	}
	harness := `
#include <linux/types.h>
#include <stdio.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>
#include "bpfcc_log2_only.h"
static int want(__u64 v) { int n = 0; while (v) { n++; v >>= 1; } return n; }
int main(void) {
	__u64 vs[] = { 0, 1, 2, 3, 4, 5, 7, 8, 255, 256, 65535, 65536, 0xffffffffULL, 0x100000000ULL,
		0x8000000000000000ULL, 0xffffffffffffffffULL, 0x123456789aULL };
	volatile __u16 s = 0x1234; volatile __u32 l = 0x12345678; volatile __u64 q = 0x0102030405060708ULL;
	int bad = 0;
	for (unsigned i = 0; i < sizeof(vs) / sizeof(vs[0]); i++)
		for (int d = -1; d <= 1; d++) {
			__u64 v = vs[i] + d;
			if (bpfcc_log2(v) != (__u32)want(v)) { printf("log2(%llu) = %u\n", (unsigned long long)v, bpfcc_log2(v)); bad = 1; }
		}
	if (bpf_htons(s) != 0x3412 || bpf_ntohl(l) != 0x78563412 || bpf_cpu_to_be64(q) != 0x0807060504030201ULL) { printf("bswap\n"); bad = 1; }
	return bad;
}
`
	// bpfcc.h pulls in the BPF-only parts; extract bpfcc_log2 for the host.
	own, err := os.ReadFile(filepath.Join(dir, OwnDir, "bpfcc.h"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(own)
	i := strings.Index(s, "static __always_inline __u32 bpfcc_log2")
	j := strings.Index(s[i:], "\n}\n")
	if i < 0 || j < 0 {
		t.Fatal("bpfcc_log2 not found in bpfcc.h")
	}
	if err := os.WriteFile(filepath.Join(dir, "bpfcc_log2_only.h"), []byte(s[i:i+j+3]), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "h.c"), []byte(harness), 0o644); err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(dir, "h")
	cmd := exec.Command(gcc, "-O2", "-w", "-I", filepath.Join(dir, CompatDir), "-I", dir, "-o", exe, filepath.Join(dir, "h.c"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Skipf("host compiler cannot build the harness: %v\n%s", err, out)
	}
	if out, err := exec.Command(exe).CombinedOutput(); err != nil {
		t.Errorf("harness: %v\n%s", err, out)
	}
}
