package dwarfvars

import (
	"fmt"
	"testing"
)

// A location expression with a forward DW_OP_bra (gcc -O2's folded MIN():
// `lt; bra +1; swap; drop`, zstd's ZSTD_ldm_getTableSize) binds, as a
// straight-line select, and picks the smaller member either way round.
func TestBindForwardBranch(t *testing.T) {
	src := `#include <stddef.h>
#include <stdio.h>
#define MIN(a, b) ((a) < (b) ? (a) : (b))
typedef struct { int enable; unsigned hashLog, bucketSizeLog, minMatch, rate, window; } params_t;
__attribute__((noinline)) size_t table_size(params_t p) {
  size_t const hsize = ((size_t)1) << p.hashLog;
  size_t const bucketLog = MIN(p.bucketSizeLog, p.hashLog);
  size_t const bucket = ((size_t)1) << (p.hashLog - bucketLog);
  size_t const total = bucket + hsize * 8;
  return p.enable == 1 ? total : 0;
}
int main(int argc, char **argv) {
  params_t p = {argc > 5, 6 + argc, 3, 4, 5, 6};
  printf("%zu\n", table_size(p));
  return 0;
}
`
	bin := buildFiles(t, "gcc", []string{"-g", "-O2"}, map[string]string{"bra.c": src}, "bra.c")
	b := open(t, bin)
	s := siteOf(t, b, "table_size")
	bd, err := b.Bind(s, mustExpr(t, "bucketLog"))
	if err != nil {
		t.Fatalf("bucketLog: %v", err)
	}
	if bd.Loc.Kind != LocValue {
		t.Skipf("skipped: bucketLog is %s here, not a computed value", bd.Describe())
	}
	// At the entry the CFA is rsp+8: the by-value struct is above it,
	// hashLog at CFA+4 and bucketSizeLog at CFA+8.
	const rsp = 0x7ffff000
	regs := map[int]uint64{7: rsp, 16: s.Addr}
	hashAddr := uint64(rsp + 12)
	for _, c := range []struct{ hash, bucket, want uint64 }{{7, 3, 3}, {7, 9, 7}} {
		mem := func(a uint64, size int) (uint64, error) {
			switch a {
			case hashAddr:
				return c.hash, nil
			case hashAddr + 4:
				return c.bucket, nil
			}
			return 0, fmt.Errorf("no memory at %#x (gcc laid the struct out otherwise?)", a)
		}
		got, err := bd.Loc.Fetch.Eval(regs, nil, s.Addr, mem)
		if err != nil {
			t.Fatalf("bucketLog = %s: %v", bd.Describe(), err)
		}
		if got&0xffffffff != c.want {
			t.Errorf("hashLog %d, bucketSizeLog %d: bucketLog = %d, want %d (%s)", c.hash, c.bucket, got, c.want, bd.Describe())
		}
	}
}
