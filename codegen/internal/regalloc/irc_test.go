package regalloc

import (
	"math/rand"
	"slices"
	"testing"
)

// verify checks that no register defined by an instruction shares a colour
// with another register live after it (moves excepted for their source).
func verify(t *testing.T, f *Func, color []int) {
	t.Helper()
	lv := Liveness(f)
	for bi, b := range f.Blocks {
		live := NewBitset(f.N)
		lv.AddOut(bi, live)
		for ii := len(b.Insns) - 1; ii >= 0; ii-- {
			ins := b.Insns[ii]
			for _, d := range ins.Defs {
				live.ForEach(func(l int) {
					if l == d || (ins.Move && l == ins.Uses[0]) {
						return
					}
					if color[l] == color[d] {
						t.Fatalf("block %d insn %d: r%d and r%d both get colour %d", bi, ii, d, l, color[d])
					}
				})
			}
			for _, d := range ins.Defs {
				live.Remove(d)
			}
			for _, u := range ins.Uses {
				live.Add(u)
			}
		}
	}
}

func TestCoalesceMoves(t *testing.T) {
	// v4 = r1 (param); v5 = v4 + 1; r0 = v5; exit
	f := &Func{K: 4, N: 6, Blocks: []Block{{Insns: []Insn{
		{Defs: []int{1}},
		{Uses: []int{1}, Defs: []int{4}, Move: true},
		{Uses: []int{4}, Defs: []int{5}, Move: true},
		{Uses: []int{5}, Defs: []int{5}},
		{Uses: []int{5}, Defs: []int{0}, Move: true},
		{Uses: []int{0}},
	}}}}
	res := Allocate(f, nil)
	if len(res.Spilled) != 0 {
		t.Fatalf("spilled %v", res.Spilled)
	}
	moves := 0
	for _, ins := range f.Blocks[0].Insns {
		if ins.Move && res.Color[ins.Uses[0]] != res.Color[ins.Defs[0]] {
			moves++
		}
	}
	if moves > 1 {
		t.Errorf("colours %v leave %d moves, want 1 (r1 to r0 is unavoidable)", res.Color, moves)
	}
	verify(t, f, res.Color)
}

func TestSpillsWhenTooManyLive(t *testing.T) {
	// Six values defined, then all used: with K=4 something must spill.
	var insns []Insn
	for r := 4; r < 10; r++ {
		insns = append(insns, Insn{Defs: []int{r}})
	}
	insns = append(insns, Insn{Uses: []int{4, 5, 6, 7, 8, 9}})
	f := &Func{K: 4, N: 10, Blocks: []Block{{Insns: insns}}}
	if res := Allocate(f, nil); len(res.Spilled) < 2 {
		t.Fatalf("spilled %v, want at least 2", res.Spilled)
	}
}

func TestRandomGraphs(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for iter := 0; iter < 200; iter++ {
		const k = 6
		n := k + 5 + rng.Intn(20)
		var insns []Insn
		defined := []int{}
		for i := 0; i < 40; i++ {
			d := k + rng.Intn(n-k)
			ins := Insn{Defs: []int{d}}
			if len(defined) > 0 {
				u := defined[rng.Intn(len(defined))]
				ins.Uses = []int{u}
				ins.Move = rng.Intn(3) == 0 && u != d
			}
			if rng.Intn(5) == 0 {
				ins.Defs = append(ins.Defs, rng.Intn(k)) // clobber a physical register
				ins.Move = false
			}
			insns = append(insns, ins)
			defined = append(defined, d)
		}
		insns = append(insns, Insn{Uses: defined[len(defined)-3:]})
		f := &Func{K: k, N: n, Blocks: []Block{{Insns: insns}}}
		res := Allocate(f, nil)
		if len(res.Spilled) > 0 {
			continue
		}
		verify(t, f, res.Color)
	}
}

// TestConservativeNoAlloc: the Briggs test runs for every move of a
// function, on nodes with thousands of neighbours in big programs (90
// inlined hash computations); with a set allocated per call it made
// register allocation take minutes. It must allocate nothing.
func TestConservativeNoAlloc(t *testing.T) {
	const n = 400
	f := &Func{K: 4, N: 4 + n}
	var defs, uses []Insn
	for r := 4; r < 4+n; r++ {
		defs = append(defs, Insn{Defs: []int{r}})
		uses = append(uses, Insn{Uses: []int{r}})
	}
	f.Blocks = []Block{{Insns: append(defs, uses...)}}
	a := &allocator{f: f, k: f.K, n: f.N}
	a.build()
	a.makeWorklist()
	allocs := testing.AllocsPerRun(10, func() {
		if a.conservative(4, 5) {
			t.Fatal("400 mutually interfering registers combined with K=4")
		}
	})
	if allocs != 0 {
		t.Errorf("conservative allocates %v times per call", allocs)
	}
}

// TestAdjMapMatchesMatrix: the interference edges of big functions kept in
// a map colour exactly as the bit matrix does.
func TestAdjMapMatchesMatrix(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	for iter := 0; iter < 100; iter++ {
		const k = 4
		n := k + 5 + rng.Intn(40)
		var insns []Insn
		defined := []int{}
		for i := 0; i < 80; i++ {
			d := k + rng.Intn(n-k)
			ins := Insn{Defs: []int{d}}
			if len(defined) > 0 {
				u := defined[rng.Intn(len(defined))]
				ins.Uses = []int{u}
				ins.Move = rng.Intn(3) == 0 && u != d
			}
			insns = append(insns, ins)
			defined = append(defined, d)
		}
		insns = append(insns, Insn{Uses: defined[len(defined)-6:]})
		f := &Func{K: k, N: n, Blocks: []Block{{Insns: insns}}}
		want := Allocate(f, nil)
		saved := maxAdjMatrix
		maxAdjMatrix = 0
		got := Allocate(f, nil)
		maxAdjMatrix = saved
		if !slices.Equal(got.Color, want.Color) || !slices.Equal(got.Spilled, want.Spilled) {
			t.Fatalf("iteration %d: map %v %v, matrix %v %v", iter, got.Color, got.Spilled, want.Color, want.Spilled)
		}
	}
}

// TestWorksetAndLiveSet: the worklist and live sets hold what a Bitset
// given the same operations holds, and iterate it in the same order.
func TestWorksetAndLiveSet(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	const n = 300
	ref, ws, ls := NewBitset(n), newWorkset(n), newLiveSet(NewBitset(n))
	for i := 0; i < 20000; i++ {
		r := rng.Intn(n)
		if rng.Intn(2) == 0 {
			ref.Add(r)
			ws.Add(r)
			ls.Add(r)
		} else {
			ref.Remove(r)
			ws.Remove(r)
			ls.Remove(r)
		}
		if ws.Empty() != ref.Empty() || ws.First() != ref.First() {
			t.Fatalf("step %d: workset empty=%v first=%d, bitset %v %d", i, ws.Empty(), ws.First(), ref.Empty(), ref.First())
		}
		if i%100 == 0 {
			var a, b []int
			ref.ForEach(func(r int) { a = append(a, r) })
			ls.ForEach(func(r int) { b = append(b, r) })
			if !slices.Equal(a, b) {
				t.Fatalf("step %d: live set %v, bitset %v", i, b, a)
			}
		}
	}
}

// chainFunc is a value live through a long function and copied at each of
// m links, beside a temporary that is copied too: the shape that made a
// 5,000-line body quadratic. Each link is a block of its own, in program
// order, so the allocator takes the moves first to last; each copy of the
// long-lived value merges with the chain so far, whose neighbours are the
// temporaries of the links to come (move-related, so not yet simplified).
func chainFunc(m int) *Func {
	const k = 4
	long := k
	x := func(i int) int { return k + 1 + 3*i }
	tmp := func(i int) int { return k + 2 + 3*i }
	cp := func(i int) int { return k + 3 + 3*i }
	blocks := []Block{{Insns: []Insn{{Defs: []int{long}}}, Succs: []int{1}}}
	for i := 0; i < m; i++ {
		blocks = append(blocks, Block{Insns: []Insn{
			{Uses: []int{long}, Defs: []int{x(i)}, Move: true},
			{Defs: []int{tmp(i)}},
			{Uses: []int{x(i), tmp(i)}},
			{Uses: []int{tmp(i)}, Defs: []int{cp(i)}, Move: true},
			{Uses: []int{cp(i)}},
		}, Succs: []int{i + 2}})
	}
	blocks = append(blocks, Block{Insns: []Insn{{Uses: []int{long}}}})
	return &Func{K: k, N: k + 1 + 3*m, Blocks: blocks}
}

// TestCoalesceChainStaysLinear: coalescing the chain adds edges in
// proportion to the chain, not to its square (merging the larger node into
// the smaller copied the whole list at each link: m²/2 edges), on the
// sparse graph and the matrix alike.
func TestCoalesceChainStaysLinear(t *testing.T) {
	const m = 2000
	for _, sparse := range []bool{false, true} {
		saved := maxAdjMatrix
		if sparse {
			maxAdjMatrix = 0
		}
		f := chainFunc(m)
		a := &allocator{f: f, k: f.K, n: f.N}
		res := a.run(nil)
		maxAdjMatrix = saved
		if len(res.Spilled) != 0 {
			t.Fatalf("sparse=%v: spilled %v", sparse, res.Spilled)
		}
		verify(t, f, res.Color)
		if a.edges > 20*m {
			t.Errorf("sparse=%v: %d edges added for a chain of %d links, want at most %d", sparse, a.edges, m, 20*m)
		}
	}
}

func BenchmarkAllocateChain(b *testing.B) {
	f := chainFunc(5000)
	for b.Loop() {
		Allocate(f, nil)
	}
}
