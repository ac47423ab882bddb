package dwarfvars

import (
	"strings"
	"testing"
)

// At a function's entry, an empty location-list entry ([entry, entry),
// gcc's location view 0) is the parameter as passed, as gdb reads it:
// expat's normal_charRefNumber folds `ptr += 2` into its first load, and
// the list's next entry, from the same address, already says rsi+2 (here
// rdi+2: gcc drops the unused enc of the static copy).
func TestEmptyEntryAtFunctionEntry(t *testing.T) {
	src := `#include <stdio.h>
__attribute__((noinline)) static int charref(const void *enc, const char *ptr) {
  int result = 0;
  (void)enc;
  ptr += 2;
  if (*ptr == 'x') {
    for (ptr += 1; *ptr != ';'; ptr += 1) {
      int c = *ptr;
      if (c >= '0' && c <= '9') { result <<= 4; result |= c - '0'; }
      else if (c >= 'a' && c <= 'f') { result <<= 4; result += 10 + (c - 'a'); }
      if (result >= 0x110000) return -1;
    }
  } else {
    for (; *ptr != ';'; ptr += 1) {
      int c = *ptr;
      result *= 10;
      result += c - '0';
      if (result >= 0x110000) return -1;
    }
  }
  return result;
}
int main(int argc, char **argv) { printf("%d\n", charref(0, argc > 1 ? argv[1] : "&#65;")); return 0; }
`
	bin := buildFiles(t, "gcc", []string{"-g", "-O2"}, map[string]string{"lv.c": src}, "lv.c")
	b := open(t, bin)
	sites, err := b.Resolve(mustProbe(t, "charref"))
	if err != nil || len(sites) != 1 {
		t.Fatalf("resolve charref: %v %v", sites, err)
	}
	s := sites[0]
	if s.Addr != s.EntryAddr {
		t.Skipf("skipped: gcc placed the charref probe at %#x, not its entry %#x", s.Addr, s.EntryAddr)
	}
	bd, err := b.Bind(s, mustExpr(t, "ptr"))
	if err != nil {
		t.Fatal(err)
	}
	got := bd.Describe()
	if strings.Contains(got, "+2") {
		t.Errorf("ptr at charref's entry = %s, want the register as passed (gdb: view 0)", got)
	}
}

// A line probe of a function's opening line, whose code is the prologue
// at the function's entry (gcc -O0: pcre2's find_minlength, with `{` on a
// line of its own), probes after the prologue, as the FUNC probe and gdb's
// `break FILE:LINE` do: at the entry the parameters are not yet in their
// stack slots, and every one was refused.
func TestOpeningLineAfterPrologue(t *testing.T) {
	src := `#include <stdio.h>
__attribute__((noinline)) int scale(const char *name,
    int factor, long base)
{
  long r = base * factor;
  printf("%s %ld\n", name, r);
  return (int)r;
}
int main(int argc, char **argv) { return scale(argv[0], argc + 2, 40) == 0; }
`
	bin := buildFiles(t, "gcc", []string{"-g", "-O0"}, map[string]string{"ol.c": src}, "ol.c")
	b := open(t, bin)
	fn := siteOf(t, b, "scale")
	for _, probe := range []string{"ol.c:4", "scale:2"} {
		s := siteOf(t, b, probe)
		if s.Addr != fn.Addr {
			t.Errorf("%s probes %#x, want %#x, after the prologue as the FUNC probe", probe, s.Addr, fn.Addr)
		}
		if _, err := b.Bind(s, mustExpr(t, "factor")); err != nil {
			t.Errorf("%s: factor: %v", probe, err)
		}
	}
}
