package regalloc

import "slices"

// Only a register that some block reads before writing it (upward-exposed)
// can be live at a block boundary, so liveness at block boundaries is
// solved over those alone, numbered densely. An unrolled program of 6,000
// blocks and 20,000 registers has a few hundred of them: sets as wide as
// all registers took 70 MB and most of the compile each time.

// BlockLive holds the registers live at each block's start and end.
type BlockLive struct {
	index   []int32 // register -> its number in the sets, or -1
	regs    []int   // number -> register
	in, out []Bitset
}

// LiveIn reports whether r is live at block b's start.
func (l *BlockLive) LiveIn(b, r int) bool {
	k := l.index[r]
	return k >= 0 && l.in[b].Has(int(k))
}

// ForEachIn calls fn for the registers live at block b's start, in
// increasing order.
func (l *BlockLive) ForEachIn(b int, fn func(r int)) { l.forEach(l.in[b], fn) }

// ForEachOut calls fn for the registers live at block b's end, in
// increasing order.
func (l *BlockLive) ForEachOut(b int, fn func(r int)) { l.forEach(l.out[b], fn) }

// AddOut adds the registers live at block b's end to set.
func (l *BlockLive) AddOut(b int, set Bitset) {
	l.out[b].ForEach(func(k int) { set.Add(l.regs[k]) })
}

// forEach maps dense numbers back to registers (in the same order: see
// Solve).
func (l *BlockLive) forEach(s Bitset, fn func(r int)) {
	s.ForEach(func(k int) { fn(l.regs[k]) })
}

// UpwardExposed collects, per block, the registers read before written.
type UpwardExposed struct {
	stamp, seen []int32 // the last block (+1) that defined / listed a register
	ue          [][]int32
}

// NewUpwardExposed prepares for n registers and nb blocks; blocks are fed
// in order, each instruction's uses before its definitions.
func NewUpwardExposed(n, nb int) *UpwardExposed {
	return &UpwardExposed{stamp: make([]int32, n), seen: make([]int32, n), ue: make([][]int32, nb)}
}

// Use records a read of r in block b.
func (u *UpwardExposed) Use(b, r int) {
	if k := int32(b + 1); u.stamp[r] != k && u.seen[r] != k {
		u.seen[r] = k
		u.ue[b] = append(u.ue[b], int32(r))
	}
}

// Def records a write of r in block b.
func (u *UpwardExposed) Def(b, r int) { u.stamp[r] = int32(b + 1) }

// Solve computes the live sets; defs lists block b's definitions, succs
// its successors.
func (u *UpwardExposed) Solve(defs func(b int, def func(r int)), succs func(b int) []int) *BlockLive {
	nb := len(u.ue)
	l := &BlockLive{index: u.stamp} // reused: the stamps are done with
	for r := range l.index {
		l.index[r] = -1
	}
	for _, rs := range u.ue {
		for _, r := range rs {
			if l.index[r] < 0 {
				l.index[r] = int32(len(l.regs))
				l.regs = append(l.regs, int(r))
			}
		}
	}
	// Number the registers in increasing order, so that ForEach* visit
	// them as a full-width set would.
	slices.Sort(l.regs)
	for k, r := range l.regs {
		l.index[r] = int32(k)
	}
	words := (len(l.regs) + 63) / 64
	// One allocation for the four sets of every block.
	all := make(Bitset, 4*nb*words)
	set := func(k, i int) Bitset { o := (k*nb + i) * words; return all[o : o+words : o+words] }
	l.in, l.out = make([]Bitset, nb), make([]Bitset, nb)
	use, def := make([]Bitset, nb), make([]Bitset, nb)
	for i := range nb {
		l.in[i], l.out[i], use[i], def[i] = set(0, i), set(1, i), set(2, i), set(3, i)
		for _, r := range u.ue[i] {
			use[i].Add(int(l.index[r]))
		}
		d := def[i]
		defs(i, func(r int) {
			if k := l.index[r]; k >= 0 {
				d.Add(int(k))
			}
		})
	}
	in, out := l.in, l.out
	for changed := true; changed; {
		changed = false
		for i := nb - 1; i >= 0; i-- {
			for _, s := range succs(i) {
				out[i].UnionWith(in[s])
			}
			// in = use ∪ (out − def)
			for w := range in[i] {
				n := use[i][w] | (out[i][w] &^ def[i][w])
				if n != in[i][w] {
					in[i][w] = n
					changed = true
				}
			}
		}
	}
	return l
}
