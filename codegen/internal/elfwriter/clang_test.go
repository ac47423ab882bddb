package elfwriter

import (
	"bytes"
	"debug/elf"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// clangSource is the C program testObject was hand-compiled from.
const clangSource = `
#define SEC(n) __attribute__((section(n), used))
#define __uint(name, val) int (*name)[val]
#define __type(name, val) typeof(val) *name
typedef unsigned int u32;
typedef unsigned long long u64;
struct __sk_buff;
static void *(*bpf_map_lookup_elem)(void *map, const void *key) = (void *)1;
static long (*bpf_loop)(u32 nr, void *cb, void *ctx, u64 flags) = (void *)181;
struct { __uint(type, 2); __type(key, u32); __type(value, u64); __uint(max_entries, 4); } counts SEC(".maps");
int gv = 5;
int arr[2] = {10, 20};
const volatile int ro0 = 1;
static const volatile int ro = 7;
u64 zz;
__attribute__((noinline)) int gadd(int a) { return a + 100; }
static __attribute__((noinline)) int sdouble(int a) { return a * 2; }
static long cb(u64 i, void *ctx) { return 0; }
SEC("socket") int prog(struct __sk_buff *skb) {
	u32 k = 0; u64 *v = bpf_map_lookup_elem(&counts, &k);
	if (!v) return 0;
	zz++;
	*v = sdouble(gadd(gv + ro + arr[1])) + zz;
	return *v + bpf_loop(4, cb, 0, 0);
}
char LICENSE[] SEC("license") = "GPL";
`

// elfSummary is what must agree between clang's object and ours.
type elfSummary struct {
	sections []string          // "name type flags align", sorted
	rels     map[string]string // program section -> sorted relocation types
	symbols  map[string]string // name -> "type bind section"
}

func summarize(t *testing.T, data []byte) elfSummary {
	t.Helper()
	f, err := elf.NewFile(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	s := elfSummary{rels: map[string]string{}, symbols: map[string]string{}}
	for _, sec := range f.Sections {
		n := sec.Name
		if n == "" || strings.Contains(n, ".debug") || n == ".llvm_addrsig" || n == ".rel.BTF" || n == ".rel.BTF.ext" {
			continue
		}
		s.sections = append(s.sections, fmt.Sprintf("%s %v %v %d", n, sec.Type, sec.Flags, sec.Addralign))
		if sec.Type == elf.SHT_REL {
			target := f.Sections[sec.Info].Name
			data, err := sec.Data()
			if err != nil {
				t.Fatal(err)
			}
			var types []string
			for off := 0; off+16 <= len(data); off += 16 {
				info := f.ByteOrder.Uint64(data[off+8:])
				types = append(types, fmt.Sprint(elf.R_TYPE64(info)))
			}
			sort.Strings(types)
			s.rels[target] = strings.Join(types, ",")
		}
	}
	sort.Strings(s.sections)
	syms, err := f.Symbols()
	if err != nil {
		t.Fatal(err)
	}
	for _, sym := range syms {
		if sym.Name == "" || elf.ST_TYPE(sym.Info) == elf.STT_FILE || sym.Name == "LICENSE" {
			continue
		}
		sec := "UND"
		if int(sym.Section) < len(f.Sections) {
			sec = f.Sections[sym.Section].Name
		}
		s.symbols[sym.Name] = fmt.Sprintf("%v %v %s value=%d size=%d", elf.ST_TYPE(sym.Info), elf.ST_BIND(sym.Info), sec, sym.Value, sym.Size)
	}
	return s
}

// TestCompareWithClang compiles the same program with clang and compares
// the section list, relocation types and symbols.
func TestCompareWithClang(t *testing.T) {
	clang := requireTool(t, "/usr/bin/clang-19")
	dir := t.TempDir()
	src := filepath.Join(dir, "prog.c")
	writeFile(t, src, clangSource)
	ref := filepath.Join(dir, "clang.o")
	if out, err := exec.Command(clang, "-target", "bpf", "-g", "-O2", "-c", src, "-o", ref).CombinedOutput(); err != nil {
		t.Fatalf("clang: %v\n%s", err, out)
	}
	want := summarize(t, readFile(t, ref))
	ours := mustWrite(t)
	got := summarize(t, ours)

	if strings.Join(got.sections, "\n") != strings.Join(want.sections, "\n") {
		t.Errorf("sections differ:\nours:\n%s\nclang:\n%s", strings.Join(got.sections, "\n"), strings.Join(want.sections, "\n"))
	}
	for sec, w := range want.rels {
		if got.rels[sec] != w {
			t.Errorf("relocation types of %s: ours %q, clang %q", sec, got.rels[sec], w)
		}
	}
	for name, w := range want.symbols {
		g := got.symbols[name]
		// arr is at offset 8 in our .data (padding after gv), at 4 in
		// clang's; clang schedules prog's body differently.
		var strip *regexp.Regexp
		switch name {
		case "arr":
			strip = regexp.MustCompile(`value=\d+`)
		case "prog":
			strip = regexp.MustCompile(`size=\d+`)
		}
		if strip != nil {
			g, w = strip.ReplaceAllString(g, ""), strip.ReplaceAllString(w, "")
		}
		if g != w {
			t.Errorf("symbol %s: ours %q, clang %q", name, g, w)
		}
	}

	// llvm-readelf and llvm-objdump read our object without complaint.
	if readelf, err := exec.LookPath("llvm-readelf-19"); err == nil {
		obj := filepath.Join(dir, "ours.o")
		writeFile(t, obj, string(ours))
		out, err := exec.Command(readelf, "-S", "-r", "-s", obj).CombinedOutput()
		if err != nil || bytes.Contains(out, []byte("warning")) || bytes.Contains(out, []byte("error")) {
			t.Errorf("llvm-readelf: %v\n%s", err, out)
		}
		for _, w := range []string{"R_BPF_64_64", "R_BPF_64_32", ".relsocket"} {
			if !bytes.Contains(out, []byte(w)) {
				t.Errorf("llvm-readelf output lacks %s", w)
			}
		}
		if objdump, err := exec.LookPath("llvm-objdump-19"); err == nil {
			out, err := exec.Command(objdump, "-d", "-r", obj).CombinedOutput()
			if err != nil || !bytes.Contains(out, []byte("<sdouble>:")) || !bytes.Contains(out, []byte("R_BPF_64_32\tgadd")) {
				t.Errorf("llvm-objdump: %v\n%s", err, out)
			}
		}
	}
}
