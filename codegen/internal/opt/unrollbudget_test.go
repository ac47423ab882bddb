package opt

import (
	"fmt"
	"strings"
	"testing"

	"github.com/bpfcc/bpfcc/ir"
)

// The unroller's function budget counts every IR instruction, copies
// included: in a function of maxUnrollFunc moves, a loop is unrolled only
// while the function has had fewer than maxLargeUnrolls unrollings (a
// small loop in a large program, falco's cgroup path walk, is unrolled as
// clang unrolls it); with 10 moves, the ordinary limit of maxUnrolls holds.
// (Measured by inlining's size, which counts copies free, bench's three
// nested 16-trip loops were unrolled a level deeper: 1,953 -> 6,553
// instructions, 0.2 -> 0.8 s against clang's 40 ms.)
func TestUnrollBudgetCountsCopies(t *testing.T) {
	for _, tc := range []struct {
		moves, rounds int
		unroll        bool
	}{{10, maxLargeUnrolls, true}, {maxUnrollFunc, 0, true}, {maxUnrollFunc, maxLargeUnrolls, false}, {10, maxUnrolls, false}} {
		var b strings.Builder
		b.WriteString("func prog(r1) section \"socket\" returns {\nb0:\n  r2 = mov 0\n  r3 = mov 0\n")
		for i := 0; i < tc.moves; i++ {
			fmt.Fprintf(&b, "  r%d = mov r1\n", 10+i)
		}
		b.WriteString("  goto b1\nb1:\n  if r2 ult 4 goto b2 else b3\nb2:\n  r3 = add r3, r2\n  r2 = add r2, 1\n  goto b1\nb3:\n  ret r3\n}\n")
		f, err := ir.ParseFunc(b.String())
		if err != nil {
			t.Fatal(err)
		}
		if got := unrollLoops(f, nil, tc.rounds); got != tc.unroll {
			t.Errorf("%d moves, %d unrolled before: unrolled %v, want %v", tc.moves, tc.rounds, got, tc.unroll)
		}
	}
}

// A loop whose copies fold to constants is unrolled up to
// maxFoldingInstrs; the same loop over a value unknown at its entry (read
// from the context) only up to maxUnrollInstrs, as clang's threshold
// grows only where the copies simplify.
func TestUnrollBudgetFolding(t *testing.T) {
	body := func(adds int) string {
		var b strings.Builder
		for i := 0; i < adds; i++ {
			fmt.Fprintf(&b, "  r3 = add r3, %d\n", i+1)
		}
		return b.String()
	}
	for _, tc := range []struct {
		name, init string
		adds       int
		unroll     bool
	}{
		{"small, unknown", "r3 = load.u32 [r1] ctx", 4, true},
		{"large, constant", "r3 = mov 7", 20, true},
		{"large, unknown", "r3 = load.u32 [r1] ctx", 20, false},
	} {
		src := "func prog(r1) section \"socket\" returns {\nb0:\n  r2 = mov 0\n  " + tc.init + "\n  goto b1\nb1:\n  if r2 ult 16 goto b2 else b3\nb2:\n" +
			body(tc.adds) + "  r2 = add r2, 1\n  goto b1\nb3:\n  ret r3\n}\n"
		f, err := ir.ParseFunc(src)
		if err != nil {
			t.Fatal(err)
		}
		// 16 copies of adds+3 instructions: 112 for 4 adds, 368 for 20.
		if got := unrollLoops(f, nil, 0); got != tc.unroll {
			t.Errorf("%s: unrolled %v, want %v", tc.name, got, tc.unroll)
		}
	}
}

// A pragma loop's budget counts copies and jumps free, as clang's cost
// does: 600 trips of 11 instructions, 16 copies and a jump fit (6,600
// counted, 16,800 with the copies); 600 trips of 30 instructions do not
// (18,000, over 16,384).
func TestUnrollPragmaBudget(t *testing.T) {
	for _, tc := range []struct {
		adds, movs int
		unroll     bool
	}{{9, 16, true}, {28, 0, false}} {
		var b strings.Builder
		b.WriteString("func prog(r1) section \"socket\" returns {\nb0:\n  r2 = mov 0\n  r3 = load.u32 [r1] ctx\n  goto b1\nb1:\n  if r2 slt 600 goto b2 else b3\nb2:\n")
		for i := 0; i < tc.adds; i++ {
			fmt.Fprintf(&b, "  r3 = add r3, %d\n", i+1)
		}
		for i := 0; i < tc.movs; i++ {
			fmt.Fprintf(&b, "  r%d = mov r3\n", 10+i)
		}
		b.WriteString("  r2 = add r2, 1\n  goto b1 !unroll\nb3:\n  ret r3\n}\n")
		f, err := ir.ParseFunc(b.String())
		if err != nil {
			t.Fatal(err)
		}
		if got := unrollLoops(f, nil, 0); got != tc.unroll {
			t.Errorf("%d adds, %d copies: unrolled %v, want %v", tc.adds, tc.movs, got, tc.unroll)
		}
	}
}
