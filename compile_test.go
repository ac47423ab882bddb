package bpfcc

import (
	"bytes"
	"debug/elf"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/cilium/ebpf/btf"

	"github.com/bpfcc/bpfcc/diag"
)

const okProg = `#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
struct { __uint(type, BPF_MAP_TYPE_ARRAY); __type(key, __u32); __type(value, __u64); __uint(max_entries, 1); } m SEC(".maps");
SEC("socket") int p(struct __sk_buff *skb) { __u32 k = 0; __u64 *v = bpf_map_lookup_elem(&m, &k); if (v) *v += 1; return 0; }
char LICENSE[] SEC("license") = "GPL";
`

func TestCompileFromSource(t *testing.T) {
	res, err := Compile("virtual.c", Options{Source: []byte(okProg)})
	if err != nil {
		t.Fatal(err)
	}
	if res.Spec.Programs["p"] == nil || res.Spec.Maps["m"] == nil {
		t.Fatalf("spec lacks program or map: %v %v", res.Spec.Programs, res.Spec.Maps)
	}
	if res.Spec.Programs["p"].SectionName != "socket" || res.Spec.Programs["p"].License != "GPL" {
		t.Errorf("program spec = %+v", res.Spec.Programs["p"])
	}
	if !strings.Contains(res.Listing, "virtual.c:4") {
		t.Errorf("listing has no source line comments:\n%s", res.Listing)
	}
	again, err := Compile("virtual.c", Options{Source: []byte(okProg)})
	if err != nil {
		t.Fatal(err)
	}
	if string(again.Object) != string(res.Object) {
		t.Error("two compilations of the same source differ")
	}
}

func TestCompileErrorsArePositioned(t *testing.T) {
	_, err := Compile("bad.c", Options{Source: []byte("int f(void) { return undefined_thing; }\n")})
	var dl diag.List
	if !errors.As(err, &dl) || len(dl) == 0 {
		t.Fatalf("err = %v, want a diag.List", err)
	}
	if dl[0].File != "bad.c" || dl[0].Line != 1 || dl[0].Col == 0 {
		t.Errorf("diagnostic %+v lacks its position", dl[0])
	}
	if errors.Is(err, ErrInternal) {
		t.Error("an input error is reported as an internal error")
	}
}

func TestCallChainStackLimit(t *testing.T) {
	src := `#include <linux/bpf.h>
static __attribute__((noinline)) int leaf(int x) { volatile char b[300]; b[x & 255] = 1; return b[3]; }
static __attribute__((noinline)) int mid(int x) { volatile char b[300]; b[x & 255] = 2; return leaf(x) + b[4]; }
__attribute__((section("socket"))) int p(struct __sk_buff *skb) { return mid(skb->len); }
char LICENSE[] __attribute__((section("license"))) = "GPL";
`
	// The total is the verifier's verdict: clang compiles it, bpfcc warns.
	res, err := Compile("stack.c", Options{Source: []byte(src)})
	if err != nil || !strings.Contains(res.Warnings.Error(), "call chain [p mid leaf]") || !strings.Contains(res.Warnings.Error(), "stack.c:4:") {
		t.Fatalf("err = %v, want the call-chain stack warning at stack.c:4", err)
	}
	// One 300-byte frame alone is fine.
	ok := strings.Replace(src, "return leaf(x) + b[4];", "return b[4];", 1)
	if _, err := Compile("stack.c", Options{Source: []byte(ok)}); err != nil {
		t.Fatalf("single frame rejected: %v", err)
	}
	// A timer callback runs alone later: the kernel checks its stack on
	// its own, not on top of the program that arms it.
	timer := `#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
struct elem { struct bpf_timer t; };
struct { __uint(type, BPF_MAP_TYPE_ARRAY); __uint(max_entries, 1); __type(key, int); __type(value, struct elem); } timers SEC(".maps");
static int cb(void *map, int *key, struct elem *e) { volatile char b[300]; b[*key & 255] = 1; return b[3]; }
SEC("tc") int p(struct __sk_buff *skb) {
	volatile char b[300]; int k = 0; struct elem *e = bpf_map_lookup_elem(&timers, &k);
	b[skb->len & 255] = 1;
	if (!e) return b[1];
	bpf_timer_init(&e->t, &timers, 1);
	bpf_timer_set_callback(&e->t, cb);
	return b[2];
}
char LICENSE[] SEC("license") = "GPL";
`
	if res, err := Compile("timer.c", Options{Source: []byte(timer)}); err != nil || strings.Contains(res.Warnings.Error(), "call chain") {
		t.Fatalf("a timer callback counted on the arming program's stack: %v", err)
	}
	sync := strings.Replace(timer, "bpf_timer_set_callback(&e->t, cb);", "bpf_loop(1, cb, 0, 0);", 1)
	if res, err := Compile("timer.c", Options{Source: []byte(sync)}); err != nil || !strings.Contains(res.Warnings.Error(), "call chain [p cb]") {
		t.Fatalf("a bpf_loop callback's frame is on top of its caller's: err = %v", err)
	}
}

func TestInputLimitsAndMistakes(t *testing.T) {
	head := "#include <linux/bpf.h>\n"
	tail := "char LICENSE[] __attribute__((section(\"license\"))) = \"GPL\";\n"
	var big strings.Builder
	big.WriteString(head + "__attribute__((section(\"socket\"))) int p(struct __sk_buff *s) { volatile unsigned long x = s->len;\n")
	for i := 0; i < 25000; i++ {
		big.WriteString("x = x * 7 + (x >> 3);\n")
	}
	big.WriteString("return x; }\n" + tail)
	cases := []struct{ name, src, want string }{
		{"too many values", big.String(), "too large for bpfcc"},
		{"data in a code section", head + "int x __attribute__((section(\"socket\"))) = 1;\n__attribute__((section(\"socket\"))) int p(struct __sk_buff *s) { return x; }\n" + tail, "which holds program code"},
		{"unknown map member", head + "#include <bpf/bpf_helpers.h>\nstruct { __uint(type, BPF_MAP_TYPE_ARRAY); __uint(max_entries, 1); int bogus; } m SEC(\".maps\");\n" + tail, `member "bogus"`},
		{"unterminated at EOF", head + "int *", "unexpected end of file"},
	}
	for _, c := range cases {
		_, err := Compile("limits.c", Options{Source: []byte(c.src)})
		var dl diag.List
		if !errors.As(err, &dl) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %.300v, want a diagnostic containing %q", c.name, err, c.want)
			continue
		}
		if dl[0].Line == 0 {
			t.Errorf("%s: diagnostic without position: %v", c.name, dl[0])
		}
	}
	// A repeated tentative definition is one object.
	res, err := Compile("tent.c", Options{Source: []byte(head + "__u64 counter; __u64 counter = 5;\n__attribute__((section(\"socket\"))) int p(void *c) { return counter; }\n" + tail)})
	if err != nil {
		t.Fatalf("tentative definitions: %v", err)
	}
	if ms := res.Spec.Maps[".data"]; ms == nil || ms.ValueSize != 8 {
		t.Errorf("tentative definitions: .data = %+v", ms)
	}
}

// btf_decl_tag attributes on maps and globals reach the object's BTF, as
// with clang (the runtime reads bpfcc:hist and friends from them).
func TestDeclTags(t *testing.T) {
	src := `#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
struct { __uint(type, BPF_MAP_TYPE_ARRAY); __type(key, __u32); __type(value, __u64); __uint(max_entries, 4); } lat SEC(".maps") __attribute__((btf_decl_tag("bpfcc:lhist:-50:10")));
__u64 total __attribute__((btf_decl_tag("a"), btf_decl_tag("b")));
SEC("socket") int p(struct __sk_buff *skb) { __u32 k = 0; __u64 *v = bpf_map_lookup_elem(&lat, &k); if (v) *v += 1; total++; return 0; }
char LICENSE[] SEC("license") = "GPL";
`
	res, err := Compile("tags.c", Options{Source: []byte(src)})
	if err != nil {
		t.Fatal(err)
	}
	if tags := res.Spec.Maps["lat"].Tags; len(tags) != 1 || tags[0] != "bpfcc:lhist:-50:10" {
		t.Errorf("map lat tags = %q", tags)
	}
	vs := res.Spec.Variables["total"]
	if vs == nil {
		t.Fatal("no variable total")
	}
	if v, ok := btf.Type(vs.Type).(*btf.Var); !ok || !slices.Contains(v.Tags, "a") || !slices.Contains(v.Tags, "b") || len(v.Tags) != 2 {
		t.Errorf("variable total: %#v", vs.Type)
	}
}

// btf_decl_tag attributes on a function definition, before or after its
// declarator, become its FUNC's tags in source order, as clang emits them
// (libbpf's __exception_cb names the exception callback with one).
func TestFuncDeclTags(t *testing.T) {
	src := `#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
__attribute__((noinline)) __attribute__((btf_decl_tag("a"))) __attribute__((btf_decl_tag("b"))) int helper(int x) { return x + 1; }
static __attribute__((noinline)) int after(int x) __attribute__((btf_decl_tag("c"), btf_decl_tag("d"))) { return x * 3; }
__attribute__((btf_decl_tag("exception_callback:helper"))) SEC("socket") int p(struct __sk_buff *skb) { return helper(skb->len) + after(skb->len); }
char LICENSE[] SEC("license") = "GPL";
`
	res, err := Compile("ftags.c", Options{Source: []byte(src)})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{"p": {"exception_callback:helper"}, "helper": {"a", "b"}, "after": {"c", "d"}}
	got := map[string][]string{}
	for _, ins := range res.Spec.Programs["p"].Instructions {
		if fn := btf.FuncMetadata(&ins); fn != nil {
			got[fn.Name] = fn.Tags
		}
	}
	for name, tags := range want {
		if !slices.Equal(got[name], tags) {
			t.Errorf("FUNC %s tags = %q, want %q", name, got[name], tags)
		}
	}
}

// btf_decl_tag attributes on a struct definition and on a typedef become
// their STRUCT's and TYPEDEF's decl tags, as clang emits them.
func TestRecordAndTypedefDeclTags(t *testing.T) {
	src := `#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
struct key_t { int a; int b; } __attribute__((btf_decl_tag("s1"))) __attribute__((btf_decl_tag("s2")));
typedef struct { int c; } value_t __attribute__((btf_decl_tag("t1")));
struct { __uint(type, BPF_MAP_TYPE_HASH); __type(key, struct key_t); __type(value, value_t); __uint(max_entries, 4); } m SEC(".maps");
SEC("socket") int p(struct __sk_buff *skb) { struct key_t k = {skb->len, 0}; value_t *v = bpf_map_lookup_elem(&m, &k); return v ? v->c : 0; }
char LICENSE[] SEC("license") = "GPL";
`
	res, err := Compile("rtags.c", Options{Source: []byte(src)})
	if err != nil {
		t.Fatal(err)
	}
	var s *btf.Struct
	if err := res.Spec.Types.TypeByName("key_t", &s); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(s.Tags, []string{"s1", "s2"}) {
		t.Errorf("struct key_t tags = %q", s.Tags)
	}
	var td *btf.Typedef
	if err := res.Spec.Types.TypeByName("value_t", &td); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(td.Tags, []string{"t1"}) {
		t.Errorf("typedef value_t tags = %q", td.Tags)
	}
}

// __weak externs and typed __ksym variables compile as clang emits them
// (undefined symbols, weak where asked); cilium/ebpf cannot read such an
// object, so Spec is nil and a warning says so.
func TestExternsCiliumCannotRead(t *testing.T) {
	src := `#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
extern int CONFIG_NO_SUCH_OPTION __kconfig __weak;
extern const int bpf_prog_active __ksym;
SEC("socket") int p(void *c) { return CONFIG_NO_SUCH_OPTION + (&bpf_prog_active != 0); }
char LICENSE[] SEC("license") = "GPL";
`
	res, err := Compile("ext.c", Options{Source: []byte(src)})
	if err != nil {
		t.Fatal(err)
	}
	if res.Spec != nil || len(res.Warnings) == 0 || !strings.Contains(res.Warnings.Error(), "loads with libbpf") {
		t.Errorf("spec %v, warnings %v", res.Spec, res.Warnings)
	}
	f, err := elf.NewFile(bytes.NewReader(res.Object))
	if err != nil {
		t.Fatal(err)
	}
	syms, _ := f.Symbols()
	binds := map[string]elf.SymBind{}
	for _, s := range syms {
		if s.Section == elf.SHN_UNDEF {
			binds[s.Name] = elf.ST_BIND(s.Info)
		}
	}
	if binds["CONFIG_NO_SUCH_OPTION"] != elf.STB_WEAK || binds["bpf_prog_active"] != elf.STB_GLOBAL {
		t.Errorf("undefined symbols %v", binds)
	}
}

// A map definition member libbpf reads and cilium/ebpf does not (numa_node)
// gives an object for libbpf and a warning, not an internal error.
func TestMapFieldCiliumCannotRead(t *testing.T) {
	src := `#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u32);
	__uint(map_flags, BPF_F_NUMA_NODE);
	__uint(numa_node, 0);
} numa SEC(".maps");
SEC("socket") int p(void *c) { __u32 k = 0; return bpf_map_lookup_elem(&numa, &k) != 0; }
char LICENSE[] SEC("license") = "GPL";
`
	res, err := Compile("numa.c", Options{Source: []byte(src)})
	if err != nil {
		t.Fatal(err)
	}
	if res.Spec != nil || !strings.Contains(res.Warnings.Error(), `"numa_node"`) {
		t.Errorf("spec %v, warnings %v", res.Spec, res.Warnings)
	}
	if !bytes.Contains(res.Object, []byte("numa_node")) {
		t.Error("the object's BTF lost the numa_node member")
	}
}
