package include

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/cilium/ebpf/asm"
	"modernc.org/cc/v4"
)

// hostFS serves the embedded headers under Root and host files, except the
// ones under hidden directories, so a test can compile as on a machine
// without libbpf-dev. Used with cc.Config.FSOnly, it is all cc sees.
type hostFS struct{ hidden []string }

func (h hostFS) Open(name string) (fs.File, error) {
	name = path.Clean(name)
	if strings.HasPrefix(name, Root+"/") {
		return CCFS().Open(name)
	}
	for _, d := range h.hidden {
		if strings.HasPrefix(name, d+"/") {
			return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
		}
	}
	return os.Open(name)
}

// libbpfDirs are where libbpf-dev installs bpf/*.h.
var libbpfDirs = []string{"/usr/include/bpf", "/usr/local/include/bpf"}

func libbpfInstalled() bool {
	_, err := os.Stat("/usr/include/bpf/bpf_helpers.h")
	return err == nil
}

// translate type-checks src as the frontend compiles it: BPF predefined
// macros, cc.Builtin, the include search order of this package, with the
// host's libbpf headers hidden unless withLibbpf.
func translate(t *testing.T, src string, withLibbpf bool) (*cc.AST, error) {
	t.Helper()
	abi, err := cc.NewABI("linux", "amd64")
	if err != nil {
		t.Fatal(err)
	}
	h := hostFS{}
	if !withLibbpf {
		h.hidden = libbpfDirs
	}
	cfg := &cc.Config{
		ABI:             abi,
		ABILayout:       true,
		FS:              h,
		FSOnly:          true,
		IncludePaths:    IncludePaths(nil),
		SysIncludePaths: SysIncludePaths(nil),
	}
	return cc.Translate(cfg, []cc.Source{
		{Name: "<predefined>", Value: PredefinedFor("amd64", 3)},
		{Name: "<builtin>", Value: cc.Builtin},
		{Name: "prog.c", Value: src},
	})
}

func mustTranslate(t *testing.T, src string, withLibbpf bool) *cc.AST {
	t.Helper()
	ast, err := translate(t, src, withLibbpf)
	if err != nil {
		t.Fatalf("translate: %v", err)
	}
	return ast
}

// libbpfProgram is written for libbpf's headers and uses what typical
// programs use from them.
const libbpfProgram = `
#include <linux/types.h>
#include <linux/bpf.h>
#include <linux/ptrace.h>
#include <linux/if_ether.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u32);
	__type(value, __u64);
} counts SEC(".maps");

struct inner { __uint(type, BPF_MAP_TYPE_ARRAY); __uint(max_entries, 1); __type(key, int); __type(value, int); } inner1 SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, 4);
	__type(key, int);
	__array(values, struct inner);
} outer SEC(".maps") = { .values = { [0] = &inner1 } };

// begin:compat-only (libbpf 1.x dropped struct bpf_map_def)
struct bpf_map_def SEC("maps") legacy = {
	.type = BPF_MAP_TYPE_ARRAY,
	.key_size = sizeof(__u32),
	.value_size = sizeof(__u64),
	.max_entries = 16,
};
// end:compat-only

const volatile __u32 target_pid = 0;

static __always_inline int is_ip(__u16 proto)
{
	switch (proto) {
	case bpf_htons(ETH_P_IP):
	case bpf_htons(ETH_P_IPV6):
		return 1;
	}
	return bpf_ntohs(proto) == ETH_P_ARP;
}

static __noinline int sub(int x) { return x + 1; }

SEC("kprobe/do_unlinkat")
int BPF_KPROBE(do_unlinkat, int dfd, const char *name)
{
	__u32 pid = bpf_get_current_pid_tgid() >> 32;
	__u64 one = 1, *v;

	if (target_pid && pid != target_pid)
		return 0;
	v = bpf_map_lookup_elem(&counts, &pid);
	if (v)
		__sync_fetch_and_add(v, 1);
	else
		bpf_map_update_elem(&counts, &pid, &one, BPF_ANY);
	bpf_printk("unlinkat");
	bpf_printk("dfd %d", dfd);
	bpf_printk("%d %s %d", dfd, name, pid);
	// begin:compat-only
	bpf_printk("%d %d %d %d %d", 1, 2, 3, 4, 5);
	// end:compat-only
	return sub(is_ip(bpf_htons(dfd)));
}

SEC("kretprobe/do_unlinkat")
int BPF_KRETPROBE(do_unlinkat_exit, long ret)
{
	bpf_printk("ret %ld", ret);
	return 0;
}

// begin:compat-only (BPF_UPROBE is libbpf 1.2+)
SEC("uprobe")
int BPF_UPROBE(on_malloc, unsigned long size)
{
	return size > 4096;
}

SEC("uretprobe")
int BPF_URETPROBE(on_malloc_ret, void *p)
{
	return p != 0;
}
// end:compat-only

SEC("kprobe/sys_write")
int raw(struct pt_regs *ctx)
{
	unsigned long a1 = PT_REGS_PARM1(ctx), a2 = PT_REGS_PARM2(ctx);
	unsigned long rc = PT_REGS_RC(ctx), ip = PT_REGS_IP(ctx), sp = PT_REGS_SP(ctx);
	unsigned long c1 = PT_REGS_PARM1_CORE(ctx);
	return a1 + a2 + rc + ip + sp + c1 + PT_REGS_FP(ctx) + PT_REGS_PARM5(ctx);
}

struct node { struct node *next; int val; char name[16]; };

SEC("kprobe/list")
int walk(struct pt_regs *ctx)
{
	struct node *n = (struct node *)PT_REGS_PARM1(ctx);
	int v = BPF_CORE_READ(n, next, next, val);
	char name[16];
	BPF_CORE_READ_STR_INTO(&name, n, next, name);
	bpf_core_read(&v, sizeof(v), &n->val);
	return v;
}

SEC("xdp")
int xdp_pass(struct xdp_md *ctx)
{
	return XDP_PASS;
}
`

func TestLibbpfProgramCompilesAgainstCompat(t *testing.T) {
	ast := mustTranslate(t, libbpfProgram, false)
	checkProgramShape(t, ast)
}

func TestLibbpfProgramCompilesAgainstInstalledLibbpf(t *testing.T) {
	if !libbpfInstalled() {
		t.Skip("libbpf headers not installed")
	}
	// The same program and predefined macros with the real headers: the two
	// sets of headers are interchangeable for it. The compat-only parts are
	// left out: libbpf 1.x has no struct bpf_map_def, libbpf before 1.2 no
	// BPF_UPROBE/BPF_URETPROBE, and libbpf's
	// bpf_printk (GNU named variadic "args..." pasted with ##args) trips a
	// modernc.org/cc/v4 preprocessor bug beyond 3 arguments; bpfcc's own
	// headers use __VA_ARGS__ and are not affected.
	src := libbpfProgram
	for {
		i := strings.Index(src, "// begin:compat-only")
		if i < 0 {
			break
		}
		j := strings.Index(src, "// end:compat-only")
		src = src[:i] + src[j+len("// end:compat-only"):]
	}
	mustTranslate(t, src, true)
}

// checkProgramShape checks what the frontend will look for: helper
// variables with their ids, SEC on functions and maps, map attributes.
func checkProgramShape(t *testing.T, ast *cc.AST) {
	t.Helper()
	lookup := ast.Scope.Nodes["bpf_map_lookup_elem"]
	if len(lookup) == 0 {
		t.Fatal("bpf_map_lookup_elem not declared")
	}
	secs := map[string]string{}
	for l := ast.TranslationUnit; l != nil; l = l.TranslationUnit {
		ed := l.ExternalDeclaration
		switch ed.Case {
		case cc.ExternalDeclarationFuncDef:
			d := ed.FunctionDefinition.Declarator
			if a := d.Type().Attributes(); a != nil {
				if s, ok := sectionOf(a); ok {
					secs[d.Name()] = s
				}
			}
		}
	}
	for fn, want := range map[string]string{
		"do_unlinkat": "kprobe/do_unlinkat", "do_unlinkat_exit": "kretprobe/do_unlinkat",
		"on_malloc": "uprobe", "on_malloc_ret": "uretprobe", "raw": "kprobe/sys_write", "xdp_pass": "xdp",
	} {
		if secs[fn] != want {
			t.Errorf("SEC of %s = %q, want %q (all: %v)", fn, secs[fn], want, secs)
		}
	}
}

// sectionOf returns the section attribute's name.
func sectionOf(a *cc.Attributes) (string, bool) {
	if a == nil {
		return "", false
	}
	for _, v := range a.AttrValue("section") {
		if s, ok := v.(cc.StringValue); ok {
			return strings.TrimRight(string(s), "\x00"), true
		}
	}
	return "", false
}

var declRE = regexp.MustCompile(`(?m)^static .*\(\* const (bpf_\w+)\)\(.*\) = \(void \*\) (\d+);$`)

// TestHelperIDsMatchCilium checks the committed helper ids against
// github.com/cilium/ebpf/asm, which has its own copy of enum bpf_func_id.
func TestHelperIDsMatchCilium(t *testing.T) {
	src, err := fs.ReadFile(FS, "compat/bpf/bpf_helper_defs.h")
	if err != nil {
		t.Fatal(err)
	}
	ms := declRE.FindAllSubmatch(src, -1)
	if len(ms) < 200 {
		t.Fatalf("only %d helper declarations in bpf_helper_defs.h", len(ms))
	}
	checked := 0
	for _, m := range ms {
		name := string(m[1])
		id, err := strconv.Atoi(string(m[2]))
		if err != nil {
			t.Fatal(err)
		}
		got := asm.BuiltinFunc(id).String()
		if strings.HasPrefix(got, "BuiltinFunc(") {
			t.Logf("%s (id %d) is newer than cilium/ebpf's table", name, id)
			continue
		}
		if want := ciliumName(name); got != want {
			t.Errorf("%s has id %d, which cilium/ebpf calls %s, want %s", name, id, got, want)
		}
		checked++
	}
	if asm.FnMapLookupElem.String() != ciliumName("bpf_map_lookup_elem") {
		t.Errorf("ciliumName(bpf_map_lookup_elem) = %s, want %s", ciliumName("bpf_map_lookup_elem"), asm.FnMapLookupElem)
	}
	if checked < 200 {
		t.Errorf("checked only %d helpers", checked)
	}
}

// ciliumName turns bpf_get_smp_processor_id into FnGetSmpProcessorId.
func ciliumName(helper string) string {
	var b strings.Builder
	b.WriteString("Fn")
	for _, w := range strings.Split(strings.TrimPrefix(helper, "bpf_"), "_") {
		if w != "" {
			b.WriteString(strings.ToUpper(w[:1]) + w[1:])
		}
	}
	return b.String()
}

func TestCCFS(t *testing.T) {
	for _, name := range []string{
		OwnInclude + "/bpfcc.h",
		CompatInclude + "/bpf/bpf_helpers.h",
		CompatInclude + "/bpf/bpf_helper_defs.h",
		CompatInclude + "/bpf/bpf_endian.h",
		CompatInclude + "/bpf/bpf_tracing.h",
		CompatInclude + "/bpf/bpf_core_read.h",
		CompatInclude + "/bpf/../bpf/bpf_endian.h",
	} {
		f, err := CCFS().Open(name)
		if err != nil {
			t.Errorf("Open(%q): %v", name, err)
			continue
		}
		if fi, err := f.Stat(); err != nil || fi.IsDir() || fi.Size() == 0 {
			t.Errorf("Stat(%q) = %v, %v", name, fi, err)
		}
		f.Close()
	}
	for _, name := range []string{
		"/usr/include/linux/bpf.h", // the host's: cc must fall back to os.Open
		CompatInclude + "/linux/bpf.h",
		OwnInclude + "/bpf/bpf_helpers.h", // bpf/ is only in compat
		"compat/bpf/bpf_helpers.h",        // relative names are not ours
		Root + "/../../etc/passwd",
	} {
		if _, err := CCFS().Open(name); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("Open(%q): err = %v, want ErrNotExist", name, err)
		}
	}
}

func TestSearchOrder(t *testing.T) {
	got := strings.Join(SysIncludePaths([]string{"/i1", "/i2"}), " ")
	want := "/i1 /i2 " + OwnInclude + " /usr/local/include /usr/include/x86_64-linux-gnu /usr/include " + CompatInclude
	if got != want {
		t.Errorf("SysIncludePaths = %s\nwant %s", got, want)
	}
	if q := IncludePaths([]string{"/i1"}); q[0] != "@" || q[1] != "/i1" || q[len(q)-1] != CompatInclude {
		t.Errorf("IncludePaths = %v", q)
	}
	// -idirafter after the system directories (before the embedded
	// fallback); -nostdinc without them.
	s := Search{Dirs: []string{"/i1"}, After: []string{"/a1"}}
	if got, want := strings.Join(s.System(), " "), "/i1 "+OwnInclude+" /usr/local/include /usr/include/x86_64-linux-gnu /usr/include /a1 "+CompatInclude; got != want {
		t.Errorf("Search.System = %s\nwant %s", got, want)
	}
	s.NoStd = true
	if got, want := strings.Join(s.Quoted(), " "), "@ /i1 "+OwnInclude+" /a1 "+CompatInclude; got != want {
		t.Errorf("Search.Quoted with NoStd = %s\nwant %s", got, want)
	}
	if libbpfInstalled() {
		// Installed libbpf headers win over the embedded ones.
		mustTranslate(t, "#include <linux/types.h>\n#include <bpf/bpf_helpers.h>\n"+
			"#ifdef __BPFCC_BPF_HELPER_DEFS_H\n#error embedded header used although libbpf is installed\n#endif\n", true)
	}
	mustTranslate(t, "#include <linux/types.h>\n#include <bpf/bpf_helpers.h>\n"+
		"#ifndef __BPFCC_BPF_HELPER_DEFS_H\n#error embedded header not used\n#endif\n", false)
	// bpfcc.h comes from the embedded own/ directory either way.
	for _, lib := range []bool{false, true} {
		mustTranslate(t, "#include <bpfcc.h>\n#ifndef __BPFCC_H__\n#error no bpfcc.h\n#endif\n", lib)
	}
}

func TestPredefined(t *testing.T) {
	for _, m := range []string{"__x86_64__", "__linux__", "__TARGET_ARCH", "__BPF_CPU_VERSION__", "__BPF_FEATURE_ADDR", "__FLT_", "__SIZEOF_INT128__"} {
		if strings.Contains(Predefined, m) {
			t.Errorf("Predefined defines %s", m)
		}
	}
	if s := PredefinedFor("amd64", 3); !strings.Contains(s, "#define __TARGET_ARCH_x86 1\n") ||
		!strings.Contains(s, "#define __BPF_CPU_VERSION__ 3\n") {
		t.Errorf("PredefinedFor(amd64, 3) lacks the target or CPU macro")
	}
	if s := PredefinedFor("wasm", 0); s != Predefined {
		t.Errorf("PredefinedFor(wasm, 0) adds macros")
	}
	mustTranslate(t, `
_Static_assert(__bpf__ && __BPF__ && __LP64__, "target");
_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "byte order");
_Static_assert(sizeof(__SIZE_TYPE__) == 8 && sizeof(__PTRDIFF_TYPE__) == 8, "size_t");
_Static_assert(sizeof(__INT64_TYPE__) == 8 && sizeof(__UINT8_TYPE__) == 1, "intN");
_Static_assert(sizeof(long) == __SIZEOF_LONG__ && sizeof(void *) == __SIZEOF_POINTER__, "LP64");
_Static_assert(__LONG_MAX__ == 9223372036854775807L && __UINT32_MAX__ == 4294967295U, "limits");
_Static_assert(__STDC_VERSION__ >= 201112L, "C11");
_Static_assert(__clang__ && __clang_major__ == 19 && __GNUC__ == 4 && __GNUC_MINOR__ == 2, "clang 19");
#if !__has_attribute(btf_decl_tag) || !__has_attribute(__packed__) || !__has_attribute(cleanup)
#error supported attribute reported missing
#endif
#if __has_attribute(btf_type_tag) || __has_attribute(naked) || __has_attribute(no_such_attribute)
#error unsupported attribute reported present
#endif
#if defined(__x86_64__) || defined(__linux__)
#error host macros
#endif
const volatile int cv;
__typeof_unqual__(cv) unqual;
#ifndef __TARGET_ARCH_x86
#error
#endif
`, false)
}
