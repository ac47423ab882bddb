package dwarfvars

import (
	"debug/elf"
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
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	syms, _ := f.Symbols()
	f.Close()
	var hot, cold uint64
	for _, s := range syms {
		switch s.Name {
		case "work":
			hot = s.Value
		case "work.cold":
			cold = s.Value
		}
	}
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
}
