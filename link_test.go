package bpfcc

import (
	"bytes"
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cilium/ebpf"
	"github.com/cilium/ebpf/btf"
)

// A call to a function another object defines is a BPF-to-BPF call against
// its undefined symbol (STT_NOTYPE, visibility from the declaration) with
// a BTF FUNC of extern linkage in no DATASEC, as clang emits it, so that
// bpftool gen object links it.
func TestExternFuncCall(t *testing.T) {
	caller := `
extern int add(int a, int b);
__attribute__((visibility("hidden"))) extern int twice(int a);
__attribute__((section("xdp"))) int prog(void *ctx) { return add(twice(2), 3); }
char _license[] __attribute__((section("license"))) = "GPL";
`
	callee := `
__attribute__((noinline)) int add(int a, int b) { return a + b; }
__attribute__((noinline)) int twice(int a) { return a * 2; }
`
	res, err := Compile("caller.c", Options{Source: []byte(caller)})
	if err != nil {
		t.Fatal(err)
	}
	f, err := elf.NewFile(bytes.NewReader(res.Object))
	if err != nil {
		t.Fatal(err)
	}
	syms, _ := f.Symbols()
	got := map[string]string{}
	for _, s := range syms {
		if s.Section == elf.SHN_UNDEF {
			got[s.Name] = elf.ST_BIND(s.Info).String() + " " + elf.ST_TYPE(s.Info).String() + " " + elf.ST_VISIBILITY(s.Other).String()
		}
	}
	for name, want := range map[string]string{"add": "STB_GLOBAL STT_NOTYPE STV_DEFAULT", "twice": "STB_GLOBAL STT_NOTYPE STV_HIDDEN"} {
		if got[name] != want {
			t.Errorf("undefined symbol %s: %q, want %q", name, got[name], want)
		}
	}
	// R_BPF_64_32 (10) against each symbol, at a call -1 (src BPF_PSEUDO_CALL).
	text, _ := f.Section("xdp").Data()
	rels, _ := f.Section(".relxdp").Data()
	var called []string
	for i := 0; i+16 <= len(rels); i += 16 {
		off, info := f.ByteOrder.Uint64(rels[i:]), f.ByteOrder.Uint64(rels[i+8:])
		ins := text[off : off+8]
		if info&0xffffffff != 10 || ins[0] != 0x85 || ins[1]>>4 != 1 || f.ByteOrder.Uint32(ins[4:]) != 0xffffffff {
			t.Errorf("relocation at %d: type %d on % x, want R_BPF_64_32 on call -1", off, info&0xffffffff, ins)
		}
		called = append(called, syms[info>>32-1].Name)
	}
	if len(called) != 2 || called[0] != "twice" || called[1] != "add" {
		t.Errorf("calls relocated against %v, want [twice add]", called)
	}
	spec, err := btf.LoadSpecFromReader(bytes.NewReader(res.Object))
	if err != nil {
		t.Fatal(err)
	}
	var fn *btf.Func
	if err := spec.TypeByName("add", &fn); err != nil || fn.Linkage != btf.ExternFunc {
		t.Errorf("FUNC add: %v %v, want extern linkage", fn, err)
	}
	var ksyms *btf.Datasec
	if spec.TypeByName(".ksyms", &ksyms) == nil {
		t.Errorf("DATASEC .ksyms %v: the functions are no kernel symbols", ksyms)
	}

	bpftool, err := exec.LookPath("bpftool")
	if err != nil {
		t.Skip("no bpftool to link with")
	}
	lib, err := Compile("callee.c", Options{Source: []byte(callee)})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	a, b, out := filepath.Join(dir, "a.o"), filepath.Join(dir, "b.o"), filepath.Join(dir, "linked.o")
	if err := os.WriteFile(a, res.Object, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(b, lib.Object, 0o644); err != nil {
		t.Fatal(err)
	}
	if msg, err := exec.Command(bpftool, "gen", "object", out, a, b).CombinedOutput(); err != nil {
		t.Fatalf("bpftool gen object: %v\n%s", err, msg)
	}
	coll, err := ebpf.LoadCollectionSpec(out)
	if err != nil {
		t.Fatalf("cilium/ebpf reads the linked object: %v", err)
	}
	if os.Getuid() != 0 {
		t.Skip("not root: linked, not loaded")
	}
	objs, err := ebpf.NewCollection(coll)
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	defer objs.Close()
	ret, err := objs.Programs["prog"].Run(&ebpf.RunOptions{Data: make([]byte, 64)})
	if err != nil || ret != 7 {
		t.Errorf("run: %d %v, want 7", ret, err)
	}
}

// A call through a function pointer that holds one known function (a
// local assigned once, an always-inline function's parameter, a kfunc's
// address) is a direct call, as clang makes it; a pointer chosen at run
// time stays an error, BPF having no indirect call.
func TestKnownFunctionPointerCall(t *testing.T) {
	src := `
extern void *bpf_obj_new_impl(unsigned long long id, void *meta) __attribute__((section(".ksyms")));
static __attribute__((noinline)) int twice(int a) { return a * 2; }
static inline __attribute__((always_inline)) int apply(int (*fn)(int), int x) { return fn(x) + 1; }
__attribute__((section("xdp"))) int prog(void *ctx) {
	int (*local)(int) = twice;
	void *(*alloc)(unsigned long long, void *) = (void *)&bpf_obj_new_impl;
	return apply(twice, 3) + local(4) + (alloc(0, 0) != 0);
}
char _license[] __attribute__((section("license"))) = "GPL";
`
	res, err := Compile("fnptr.c", Options{Source: []byte(src)})
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(res.Listing, "call twice"); n != 2 {
		t.Errorf("%d direct calls of twice, want 2:\n%s", n, res.Listing)
	}
	if !strings.Contains(res.Listing, "bpf_obj_new_impl") {
		t.Errorf("no call of the kfunc:\n%s", res.Listing)
	}

	chosen := `
static __attribute__((noinline)) int one(int a) { return 1; }
static __attribute__((noinline)) int two(int a) { return 2; }
__attribute__((section("xdp"))) int prog(void *ctx) {
	int (*fn)(int) = one;
	if (ctx)
		fn = two;
	return fn(0);
}
`
	_, err = Compile("chosen.c", Options{Source: []byte(chosen)})
	if err == nil || !strings.Contains(err.Error(), "chosen.c:8:2: error: indirect calls through function pointers are not supported") {
		t.Errorf("a pointer chosen at run time: %v", err)
	}
}

// Two objects that each define the same __weak map (libbpf's usdt.bpf.h
// does, for every object that traces USDT probes) link into one: the maps
// are STB_WEAK, as clang writes them, and the linker keeps one.
func TestWeakMapsLink(t *testing.T) {
	bpftool, err := exec.LookPath("bpftool")
	if err != nil {
		t.Skip("no bpftool to link with")
	}
	src := func(prog string) []byte {
		return []byte(`
struct { int (*type)[2]; int (*max_entries)[4]; int *key; long *value; } shared __attribute__((section(".maps"), weak));
static void *(*lookup)(void *map, const void *key) = (void *)1;
__attribute__((section("xdp"))) int ` + prog + `(void *ctx) { int k = 0; return lookup(&shared, &k) != 0; }
char _license[] __attribute__((section("license"))) = "GPL";
`)
	}
	dir := t.TempDir()
	var objs []string
	for _, prog := range []string{"a", "b"} {
		res, err := Compile(prog+".c", Options{Source: src(prog)})
		if err != nil {
			t.Fatal(err)
		}
		// --load reads a copy with the map global, which cilium/ebpf
		// relocates; a plain compile warns that the object is not for it.
		if res.Spec == nil || res.Spec.Maps["shared"] == nil {
			t.Errorf("%s: no spec with the weak map for --load: %v", prog, res.Warnings)
		}
		if plain, err := Compile(prog+".c", Options{Source: src(prog), NoSpec: true}); err != nil || len(plain.Warnings) != 1 || !strings.Contains(plain.Warnings[0].Msg, "__weak") {
			t.Errorf("%s: plain compile warnings %v, %v; want one about the weak map", prog, plain.Warnings, err)
		}
		p := filepath.Join(dir, prog+".o")
		if err := os.WriteFile(p, res.Object, 0o644); err != nil {
			t.Fatal(err)
		}
		objs = append(objs, p)
	}
	out := filepath.Join(dir, "linked.o")
	if msg, err := exec.Command(bpftool, append([]string{"gen", "object", out}, objs...)...).CombinedOutput(); err != nil {
		t.Fatalf("bpftool gen object: %v\n%s", err, msg)
	}
	f, err := elf.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	syms, _ := f.Symbols()
	n := 0
	for _, s := range syms {
		if s.Name == "shared" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("the linked object has %d symbols named shared, want 1", n)
	}
}
