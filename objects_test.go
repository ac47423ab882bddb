package bpfcc

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"fmt"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/cilium/ebpf"
	"github.com/cilium/ebpf/btf"
)

// dataRelocs lists an object's R_BPF_64_ABS64 relocations of section sec
// as "OFF SYMBOL+ADDEND" (the implicit addend read from the contents), and
// how undefined symbols and section symbols are named, as clang writes them.
func dataRelocs(t *testing.T, obj []byte, sec string) []string {
	t.Helper()
	f, err := elf.NewFile(bytes.NewReader(obj))
	if err != nil {
		t.Fatal(err)
	}
	syms, err := f.Symbols()
	if err != nil {
		t.Fatal(err)
	}
	target := f.Section(sec)
	rel := f.Section(".rel" + sec)
	if target == nil || rel == nil {
		t.Fatalf("no section %s or .rel%s", sec, sec)
	}
	data, _ := target.Data()
	raw, _ := rel.Data()
	var out []string
	for i := 0; i+16 <= len(raw); i += 16 {
		off := binary.LittleEndian.Uint64(raw[i:])
		info := binary.LittleEndian.Uint64(raw[i+8:])
		if typ := info & 0xffffffff; typ != 2 {
			t.Errorf("relocation at %d: type %d, want R_BPF_64_ABS64 (2)", off, typ)
		}
		s := syms[info>>32-1]
		name := s.Name
		switch {
		case elf.ST_TYPE(s.Info) == elf.STT_SECTION:
			name = "section:" + f.Sections[s.Section].Name
		case s.Section == elf.SHN_UNDEF:
			name = "undef:" + name
		}
		out = append(out, fmt.Sprintf("%d %s+%d", off, name, binary.LittleEndian.Uint64(data[off:])))
	}
	return out
}

// Addresses in initialised data become relocations in clang's encoding:
// global functions and variables by their own symbol (an interior pointer
// keeps its offset in the contents), static ones by the section symbol
// plus their offset, extern functions as undefined symbols.
func TestDataRelocations(t *testing.T) {
	src := `
extern int ext(int);
extern int kf(int) __attribute__((section(".ksyms")));
static __attribute__((noinline)) int sf(int x) { return x + 1; }
__attribute__((noinline)) int gf(int x) { return sf(x) + 2; }
int gv = 5;
static int sv = 6;
char arr[8];
void *tab[] = { (void *)gf, (void *)sf, &gv, &sv, &arr[3], (char *)arr + 5, (void *)ext, (void *)kf, 0 };
__attribute__((section("xdp"))) int prog(void *ctx) { return gf(1) + sv; }
char _license[] __attribute__((section("license"))) = "GPL";
`
	res, err := Compile("reloc.c", Options{Source: []byte(src)})
	if err != nil {
		t.Fatal(err)
	}
	got := dataRelocs(t, res.Object, ".data")
	// .data: gv at 0, sv at 4, tab at 8; .text: sf at 0 (static functions
	// are laid out in source order), gf after it.
	sfOff := funcOffset(t, res.Object, "sf")
	want := []string{
		"8 gf+0", fmt.Sprintf("16 section:.text+%d", sfOff), "24 gv+0", "32 section:.data+4",
		"40 arr+3", "48 arr+5", "56 undef:ext+0", "64 undef:kf+0",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("relocations:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if res.Spec == nil {
		t.Fatal("cilium/ebpf did not read the object")
	}
}

func funcOffset(t *testing.T, obj []byte, name string) uint64 {
	t.Helper()
	f, err := elf.NewFile(bytes.NewReader(obj))
	if err != nil {
		t.Fatal(err)
	}
	syms, _ := f.Symbols()
	for _, s := range syms {
		if s.Name == name {
			return s.Value
		}
	}
	t.Fatalf("no symbol %s", name)
	return 0
}

// A struct_ops map: the struct of function pointers goes to its own
// section with a DATASEC of that name, the programs' addresses as
// relocations against their FUNC symbols (libbpf reads st_value; cilium/ebpf
// the name), in offset order whatever the initializer's order.
func TestStructOpsSection(t *testing.T) {
	src := `
struct ops { int (*a)(void *); int (*b)(void *); unsigned int flags; char name[16]; };
__attribute__((section("struct_ops/b"))) int do_b(void *ctx) { return 2; }
__attribute__((section("struct_ops/a"))) int do_a(void *ctx) { return 1; }
__attribute__((section(".struct_ops.link"))) struct ops my_ops = { .b = (void *)do_b, .name = "mine", .a = (void *)do_a, .flags = 3 };
__attribute__((section(".struct_ops"))) struct ops old_ops = { .a = (void *)do_a };
char _license[] __attribute__((section("license"))) = "GPL";
`
	res, err := Compile("ops.c", Options{Source: []byte(src)})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(dataRelocs(t, res.Object, ".struct_ops.link"), ","), "0 do_a+0,8 do_b+0"; got != want {
		t.Errorf(".struct_ops.link relocations %s, want %s", got, want)
	}
	if got, want := strings.Join(dataRelocs(t, res.Object, ".struct_ops"), ","), "0 do_a+0"; got != want {
		t.Errorf(".struct_ops relocations %s, want %s", got, want)
	}
	f, err := elf.NewFile(bytes.NewReader(res.Object))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{".struct_ops.link", ".struct_ops"} {
		s := f.Section(name)
		if s.Type != elf.SHT_PROGBITS || s.Flags != elf.SHF_ALLOC|elf.SHF_WRITE {
			t.Errorf("%s: %v %v, want PROGBITS WA", name, s.Type, s.Flags)
		}
	}
	// cilium/ebpf refuses .struct_ops (only .struct_ops.link): the object
	// is still written, with a warning.
	if res.Spec != nil || !strings.Contains(fmt.Sprint(res.Warnings), `section ".struct_ops"`) {
		t.Errorf("spec %v, warnings %v: want no spec and a warning about .struct_ops", res.Spec != nil, res.Warnings)
	}
	names := []string{}
	for _, ds := range res.Module.Globals {
		names = append(names, ds.Name+"@"+ds.Section)
	}
	sort.Strings(names)
	if got := strings.Join(names, " "); !strings.Contains(got, "my_ops@.struct_ops.link") || !strings.Contains(got, "old_ops@.struct_ops") {
		t.Errorf("globals %s", got)
	}
}

// cilium/ebpf reads a .struct_ops.link variable as a struct_ops map and
// binds each program to the member whose relocation names it.
func TestStructOpsLinkCilium(t *testing.T) {
	src := `
struct ops { int (*a)(void *); int (*b)(void *); };
__attribute__((section("struct_ops/b"))) int do_b(void *ctx) { return 2; }
__attribute__((section(".struct_ops.link"))) struct ops my_ops = { .b = (void *)do_b };
char _license[] __attribute__((section("license"))) = "GPL";
`
	res, err := Compile("ops.c", Options{Source: []byte(src)})
	if err != nil {
		t.Fatal(err)
	}
	if res.Spec == nil {
		t.Fatalf("cilium/ebpf did not read the object: %v", res.Warnings)
	}
	m := res.Spec.Maps["my_ops"]
	if m == nil || m.Type != ebpf.StructOpsMap {
		t.Fatalf("map my_ops: %+v", m)
	}
	if p := res.Spec.Programs["do_b"]; p == nil || p.AttachTo != "ops:b" {
		t.Errorf("program do_b: %+v", p)
	}
}

// cilium/ebpf reads only ".bss", not ".bss.NAME" (libbpf's private()
// variables): code referring to one compiles, with a warning, instead of
// failing bpfcc's own check of the object.
func TestNamedBSSSection(t *testing.T) {
	src := `
long hidden __attribute__((section(".bss.A"), aligned(8)));
__attribute__((section("socket"))) int p(void *ctx) { return hidden; }
char _license[] __attribute__((section("license"))) = "GPL";
`
	res, err := Compile("bss.c", Options{Source: []byte(src)})
	if err != nil {
		t.Fatal(err)
	}
	if res.Spec != nil || !strings.Contains(fmt.Sprint(res.Warnings), `".bss.A"`) {
		t.Errorf("spec %v, warnings %v: want no spec and a warning naming .bss.A", res.Spec != nil, res.Warnings)
	}
	f, err := elf.NewFile(bytes.NewReader(res.Object))
	if err != nil {
		t.Fatal(err)
	}
	if s := f.Section(".bss.A"); s == nil || s.Type != elf.SHT_NOBITS {
		t.Errorf(".bss.A: %+v, want NOBITS", s)
	}
}

// A large zero-initialised global costs no memory in a plain compile: its
// .bss has no contents to build, and with NoSpec the object is not parsed
// back (cilium/ebpf's parse copies every data section, .bss included).
// test_skeleton.c's 16 MB array made it the slowest real-world file.
func TestLargeBSSAllocatesNothing(t *testing.T) {
	const size = 64 << 20
	src := fmt.Sprintf(`
char big[%d];
__attribute__((section("socket"))) int p(void *ctx) { return big[12345]; }
char _license[] __attribute__((section("license"))) = "GPL";
`, size)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	res, err := Compile("bss.c", Options{Source: []byte(src), NoSpec: true, NoListing: true})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > size/2 {
		t.Errorf("compile allocated %d MB for a %d MB .bss array; want well under its size", got>>20, size>>20)
	}
	if res.Spec != nil {
		t.Error("NoSpec: the result has a spec")
	}
	f, err := elf.NewFile(bytes.NewReader(res.Object))
	if err != nil {
		t.Fatal(err)
	}
	if s := f.Section(".bss"); s == nil || s.Type != elf.SHT_NOBITS || s.Size != size {
		t.Errorf(".bss: %+v, want NOBITS of %d bytes", s, size)
	}
}

// The address of a kernel function (bpf_ksym_exists(kfunc)) is an
// ld_imm64 with an R_BPF_64_64 relocation against its undefined symbol,
// as clang emits it; the kfunc's BTF FUNC is in DATASEC .ksyms.
func TestKfuncAddress(t *testing.T) {
	src := `
struct task_struct;
extern struct task_struct *bpf_task_acquire(struct task_struct *p) __attribute__((section(".ksyms"), weak));
__attribute__((section("syscall"))) int p(void *ctx) { return bpf_task_acquire ? 1 : 2; }
char _license[] __attribute__((section("license"))) = "GPL";
`
	res, err := Compile("kaddr.c", Options{Source: []byte(src)})
	if err != nil {
		t.Fatal(err)
	}
	f, err := elf.NewFile(bytes.NewReader(res.Object))
	if err != nil {
		t.Fatal(err)
	}
	syms, _ := f.Symbols()
	raw, err := f.Section(".relsyscall").Data()
	if err != nil || len(raw) != 16 {
		t.Fatalf(".relsyscall: %d bytes, %v; want one relocation", len(raw), err)
	}
	info := binary.LittleEndian.Uint64(raw[8:])
	s := syms[info>>32-1]
	if info&0xffffffff != 1 || s.Name != "bpf_task_acquire" || s.Section != elf.SHN_UNDEF || elf.ST_BIND(s.Info) != elf.STB_WEAK {
		t.Errorf("relocation type %d against %s (section %v, bind %v), want R_BPF_64_64 against the weak undefined bpf_task_acquire", info&0xffffffff, s.Name, s.Section, elf.ST_BIND(s.Info))
	}
	if !strings.Contains(res.Listing, "bpf_task_acquire") {
		t.Errorf("listing does not name the kfunc:\n%s", res.Listing)
	}
}

// Externs for the BPF static linker (bpftool gen object): variables and
// maps another object defines are undefined symbols, VARs of extern
// linkage (maps' in DATASEC .maps), as clang writes them; __weak variable
// definitions are STB_WEAK symbols, which another object's definition
// overrides, maps' too (libbpf's usdt.bpf.h; cilium/ebpf then refuses the
// object, as it refuses clang's).
func TestLinkerExterns(t *testing.T) {
	src := `
struct mapdef { int (*type)[2]; int (*max_entries)[4]; int *key; int *value; };
extern struct mapdef other_map __attribute__((section(".maps")));
struct mapdef weak_map __attribute__((section(".maps"), weak));
extern int other_var;
extern int maybe_var __attribute__((weak));
int weak_var __attribute__((weak)) = 3;
int defined_later_var;
extern int defined_later_var;
static void *(*bpf_map_lookup_elem)(void *map, const void *key) = (void *)1;
__attribute__((section("xdp"))) int prog(void *ctx) {
	int k = 0;
	return (bpf_map_lookup_elem(&other_map, &k) != 0) + (bpf_map_lookup_elem(&weak_map, &k) != 0) +
		other_var + maybe_var + weak_var + defined_later_var;
}
char _license[] __attribute__((section("license"))) = "GPL";
`
	res, err := Compile("link.c", Options{Source: []byte(src)})
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
		sec := "undef"
		if s.Section != elf.SHN_UNDEF {
			sec = f.Sections[s.Section].Name
		}
		got[s.Name] = fmt.Sprintf("%v %v %s", elf.ST_BIND(s.Info), elf.ST_TYPE(s.Info), sec)
	}
	want := map[string]string{
		"other_map":         "STB_GLOBAL STT_NOTYPE undef",
		"weak_map":          "STB_WEAK STT_OBJECT .maps",
		"other_var":         "STB_GLOBAL STT_NOTYPE undef",
		"maybe_var":         "STB_WEAK STT_NOTYPE undef",
		"weak_var":          "STB_WEAK STT_OBJECT .data",
		"defined_later_var": "STB_GLOBAL STT_OBJECT .bss",
	}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("symbol %s: %q, want %q", name, got[name], w)
		}
	}
	spec, err := btf.LoadSpecFromReader(bytes.NewReader(res.Object))
	if err != nil {
		t.Fatal(err)
	}
	var maps *btf.Datasec
	if err := spec.TypeByName(".maps", &maps); err != nil {
		t.Fatal(err)
	}
	linkage := map[string]btf.VarLinkage{}
	for _, v := range maps.Vars {
		linkage[v.Type.TypeName()] = v.Type.(*btf.Var).Linkage
	}
	if linkage["other_map"] != btf.ExternVar || linkage["weak_map"] != btf.GlobalVar {
		t.Errorf(".maps linkage %v", linkage)
	}
	var v *btf.Var
	if err := spec.TypeByName("other_var", &v); err != nil || v.Linkage != btf.ExternVar {
		t.Errorf("VAR other_var: %v %v, want extern linkage", v, err)
	}
}

// A __weak function is an STB_WEAK STT_FUNC symbol with a BTF FUNC of
// global linkage, called through its own symbol and never inlined, as
// clang writes it: another object's definition may replace it at link time.
func TestWeakFunction(t *testing.T) {
	src := `
__attribute__((weak)) int twice(int x) { return 2 * x; }
__attribute__((weak, always_inline)) int inl(int x) { return x + 1; }
__attribute__((section("xdp"))) int prog(void *ctx) { return twice(3) + inl(4); }
char _license[] __attribute__((section("license"))) = "GPL";
`
	res, err := Compile("weak.c", Options{Source: []byte(src)})
	if err != nil {
		t.Fatal(err)
	}
	f, err := elf.NewFile(bytes.NewReader(res.Object))
	if err != nil {
		t.Fatal(err)
	}
	syms, _ := f.Symbols()
	var twice *elf.Symbol
	for i := range syms {
		if syms[i].Name == "twice" {
			twice = &syms[i]
		}
	}
	if twice == nil || elf.ST_BIND(twice.Info) != elf.STB_WEAK || elf.ST_TYPE(twice.Info) != elf.STT_FUNC {
		t.Fatalf("symbol twice: %+v, want STB_WEAK STT_FUNC", twice)
	}
	prog := res.Spec.Programs["prog"]
	calls := map[string]int{}
	for _, ins := range prog.Instructions {
		if ins.IsFunctionCall() {
			calls[ins.Reference()]++
		}
	}
	// always_inline wins over weak, as in clang.
	if calls["twice"] != 1 || calls["inl"] != 0 {
		t.Errorf("prog calls %v, want twice once (not inlined) and inl never (always_inline):\n%v", calls, prog.Instructions)
	}
	spec, err := btf.LoadSpecFromReader(bytes.NewReader(res.Object))
	if err != nil {
		t.Fatal(err)
	}
	var fn *btf.Func
	if err := spec.TypeByName("twice", &fn); err != nil || fn.Linkage != btf.GlobalFunc {
		t.Errorf("FUNC twice: %v %v, want global linkage", fn, err)
	}
}
