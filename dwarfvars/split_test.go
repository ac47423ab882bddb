package dwarfvars

import (
	"debug/elf"
	"slices"
	"testing"
)

// A function gcc -O2 splits into hot and cold parts (f and f.cold, the
// cold part in .text.unlikely below f) is entered at f: the sorted
// ranges' first is the cold part, which a call never enters, so a FUNC
// probe there never fired and entry values read 0.
func TestSplitFunctionEntry(t *testing.T) {
	src := `#include <stdio.h>
volatile long sink_v;
__attribute__((noinline)) void sink(long v) { sink_v += v; }
__attribute__((noinline, cold)) void complain(int i, int v) { fprintf(stderr, "bad %d at %d\n", v, i); }
__attribute__((noinline)) long work(int n, const int *arr, int scale)
{
	long s = 0;
	for (int i = 0; i < n; i++) {
		if (arr[i] < 0) {
			complain(i, arr[i]);
			s -= arr[i] * scale;
			sink(-1);
			continue;
		}
		s += arr[i];
		sink(s);
	}
	sink(0);
	return s;
}
int main(int argc, char **argv) { int a[5] = {1, 2, 3, 4, argc}; printf("%ld\n", work(5, a, argc + 1)); return 0; }
`
	bin := buildFiles(t, "gcc", []string{"-g", "-O2"}, map[string]string{"cold.c": src}, "cold.c")
	syms := elfSymbols(t, bin)
	hot, cold := syms["work"].Value, syms["work.cold"].Value
	if cold == 0 {
		t.Skip("skipped: gcc did not split work into work.cold here")
	}
	b := open(t, bin)
	sites, err := b.Resolve(mustProbe(t, "work"))
	if err != nil || len(sites) != 1 {
		t.Fatalf("resolve work: %v %v", sites, err)
	}
	if sites[0].Addr != hot {
		t.Errorf("work resolves to %#x, want the hot entry %#x (work.cold is %#x)", sites[0].Addr, hot, cold)
	}
	// Named, the cold part is probed where it starts, as gdb's "break
	// work.cold" (it was work's entry).
	sites, err = b.Resolve(mustProbe(t, "work.cold"))
	if err != nil || len(sites) != 1 || sites[0].Addr != cold {
		t.Errorf("resolve work.cold: %v %v, want %#x", sites, err, cold)
	}
}

// An inlined copy gcc -O2 splits hot and cold (bound inlined into collect,
// its abort() path in collect.cold, below collect) is entered at its
// DW_AT_entry_pc, in collect: its DIE merges with its abstract origin's,
// and the entry_pc was skipped for the lowest address, in collect.cold,
// where a probe never fired (jq's inlined jv_object_iter_key).
func TestSplitInlinedEntry(t *testing.T) {
	src := `#include <stdlib.h>
struct blk { long *first, *last; };
static long cell[4];
__attribute__((noinline)) struct blk gen(int k) { struct blk b = { &cell[k], &cell[k] }; return b; }
static inline long bound(int op, struct blk binder)
{
	if (!binder.first || binder.first != binder.last)
		abort();
	return op + *binder.first;
}
__attribute__((noinline)) long collect(struct blk expr)
{
	struct blk v = gen(1);
	long t = bound(3, v);
	return t + *expr.last;
}
int main(int argc, char **argv) { (void)argv; cell[1] = 5; cell[2] = argc; return (int)collect(gen(2)) - 9; }
`
	bin := buildFiles(t, "gcc", []string{"-g", "-O2"}, map[string]string{"cold.c": src}, "cold.c")
	syms := elfSymbols(t, bin)
	hot := syms["collect"]
	if _, cold := syms["collect.cold"]; !cold {
		t.Skip("skipped: gcc did not split collect into collect.cold here")
	}
	b := open(t, bin)
	sites, err := b.Resolve(mustProbe(t, "bound"))
	if err != nil || len(sites) != 1 {
		t.Fatalf("resolve bound: %v %v", sites, err)
	}
	if a := sites[0].Addr; a < hot.Value || a >= hot.Value+hot.Size {
		t.Errorf("bound resolves to %#x, want an address in collect [%#x, %#x)", a, hot.Value, hot.Value+hot.Size)
	}
}

// A FUNC probe of a function inlined into another inlined copy that
// begins at the same address (is_single < bound < collect) sees the named
// function's scope: the copy beginning there is its caller, which the
// walk enters (jq's block_is_single: its parameter b was "not visible",
// the outer function's variables listed instead).
func TestNestedInlineProbeScope(t *testing.T) {
	src := `#include <stdlib.h>
struct blk { long *first, *last; };
static long cell[4];
__attribute__((noinline)) struct blk gen(int k) { struct blk b = { &cell[k], &cell[k] }; return b; }
static inline int is_single(struct blk b) { return b.first && b.first == b.last; }
static inline struct blk bound(int op, struct blk binder)
{
	if (!is_single(binder))
		return binder;
	struct blk b = gen(op);
	b.last = binder.first;
	return b;
}
__attribute__((noinline)) long collect(struct blk expr)
{
	struct blk v = gen(1);
	struct blk tail = bound(3, v);
	return *tail.first + *tail.last + *expr.last;
}
int main(int argc, char **argv) { (void)argv; cell[1] = 5; cell[2] = argc; cell[3] = 2; return (int)collect(gen(2)) - 10; }
`
	bin := buildFiles(t, "gcc", []string{"-g", "-O2"}, map[string]string{"nest.c": src}, "nest.c")
	b := open(t, bin)
	sites, err := b.Resolve(mustProbe(t, "is_single"))
	if err != nil || len(sites) == 0 {
		t.Fatalf("resolve is_single: %v %v", sites, err)
	}
	for _, s := range sites {
		vs, err := b.Vars(s)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, v := range vs {
			names = append(names, v.Name)
		}
		if !slices.Contains(names, "b") || slices.Contains(names, "expr") {
			t.Errorf("is_single at %s: variables %v, want is_single's b and not collect's expr", s, names)
		}
	}
}

// A function gcc -O2's identical code folding made a copy of another
// (free_b of free_a) keeps its symbol and code but gets a subprogram DIE
// without addresses: a probe of it is at its symbol, with nothing in
// scope, as gdb's "break free_b" (lz4's LZ4_freeStreamDecode: "function
// not found; did you mean LZ4_freeStreamDecode").
func TestFoldedFunctionProbe(t *testing.T) {
	src := `#include <stdlib.h>
typedef struct { long a[4]; } A;
typedef struct { int b[8]; } B;
int free_a(A *p) { if (!p) return 0; free(p); return 0; }
int free_b(B *p) { if (p == NULL) return 0; free(p); return 0; }
int (*volatile fa)(A *) = free_a;
int (*volatile fb)(B *) = free_b;
int main(void) { fa(malloc(sizeof(A))); return fb(malloc(sizeof(B))); }
`
	bin := buildFiles(t, "gcc", []string{"-g", "-O2"}, map[string]string{"icf.c": src}, "icf.c")
	sym := elfSymbols(t, bin)["free_b"]
	b := open(t, bin)
	if _, err := b.funcAt(sym.Value); sym.Value == 0 || err == nil {
		t.Skip("skipped: gcc did not fold free_b into free_a here")
	}
	for _, spec := range []string{"free_b", "free_b%return", "free_b+3"} {
		sites, err := b.Resolve(mustProbe(t, spec))
		if err != nil || len(sites) != 1 {
			t.Fatalf("resolve %s: %v %v", spec, sites, err)
		}
		want := sym.Value
		if spec == "free_b+3" {
			want += 3
		}
		if sites[0].Addr != want {
			t.Errorf("%s resolves to %#x, want %#x", spec, sites[0].Addr, want)
		}
		if vs, err := b.Vars(sites[0]); err != nil || len(vs) != 0 {
			t.Errorf("%s: variables %v, %v; want none", spec, vs, err)
		}
	}
}

// elfSymbols returns bin's symbols by name.
func elfSymbols(t *testing.T, bin string) map[string]elf.Symbol {
	t.Helper()
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	syms, _ := f.Symbols()
	m := map[string]elf.Symbol{}
	for _, s := range syms {
		m[s.Name] = s
	}
	return m
}
