package regalloc

import (
	"math/rand"
	"testing"
)

// verify checks that no register defined by an instruction shares a colour
// with another register live after it (moves excepted for their source).
func verify(t *testing.T, f *Func, color []int) {
	t.Helper()
	_, out := Liveness(f)
	for bi, b := range f.Blocks {
		live := out[bi].Copy()
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
