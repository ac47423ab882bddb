package dwarfvars

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// gcc -flto: the functions' code is described in a link-time unit that
// refers to the source units' declarations, and static functions of one
// name become work.lto_priv.0 and friends. A probe by the source name
// finds every copy (each named by its source unit), FUNC@SRC picks one,
// and globals defined through the link-time unit bind.
func TestLTOFunctionsAndGlobals(t *testing.T) {
	files := map[string]string{
		"a.c": `int shared_counter;
static __attribute__((noinline)) int work(int x, int y) { shared_counter += x; return x * y + shared_counter; }
int run_a(int n) { int s = 0; for (int i = 0; i < n; i++) s += work(i, n); return s; }
`,
		"b.c": `#include <stdlib.h>
extern int shared_counter;
static __attribute__((noinline)) int work(int x, int y) { shared_counter -= y * x; return x + y; }
int run_a(int n);
int main(int argc, char **argv) { int n = argc > 1 ? atoi(argv[1]) : 3; int s = run_a(n); for (int i = 0; i < n; i++) s += work(i, argc); return s & 1; }
`,
	}
	bin := buildFiles(t, "gcc", []string{"-g", "-O2", "-flto"}, files, "a.c", "b.c")
	b := open(t, bin)
	resolve := func(spec string) ([]Site, error) {
		p, err := ParseProbe(spec)
		if err != nil {
			t.Fatal(err)
		}
		return b.Resolve(p)
	}
	sites, err := resolve("work")
	if err != nil {
		t.Fatalf("work: %v", err)
	}
	cus := map[string]bool{}
	for _, s := range sites {
		if !strings.HasPrefix(s.Func, "work.") {
			t.Errorf("site %s: want the LTO symbol work.*", s)
		}
		cus[filepath.Base(s.CU)] = true
	}
	if len(sites) != 2 || !cus["a.c"] || !cus["b.c"] {
		t.Errorf("work: sites %v, want one in a.c and one in b.c", sites)
	}
	for _, src := range []string{"a.c", "b.c"} {
		sites, err := resolve("work@" + src)
		if err != nil || len(sites) != 1 || filepath.Base(sites[0].CU) != src {
			t.Errorf("work@%s: %v %v, want one site in %s", src, sites, err, src)
			continue
		}
		for _, e := range []string{"x", "y", "shared_counter"} {
			ex, _ := ParseExpr(e)
			if _, err := b.Bind(sites[0], ex); err != nil {
				t.Errorf("work@%s: bind %s: %v", src, e, err)
			}
		}
	}
	_, err = resolve("work@c.c")
	var nf *ProbeNotFoundError
	if !errors.As(err, &nf) || !strings.Contains(err.Error(), "work@a.c") || !strings.Contains(err.Error(), "work@b.c") {
		t.Errorf("work@c.c: got %v, want the candidates work@a.c and work@b.c", err)
	}
}
