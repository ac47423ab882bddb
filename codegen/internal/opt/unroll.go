package opt

import (
	"slices"

	"github.com/bpfcc/bpfcc/ir"
)

// Full-unrolling limits.
const (
	maxUnrollTrips = 64 // iterations of one loop
	// IR instructions of all the copies of one loop: clang's -O2 full
	// unrolling allows a cost of 150, 4x that where the copies simplify,
	// and any size where they fold away. A loop that computes only from
	// constants folds (maxFoldingInstrs); one that reads memory or values
	// unknown at its entry gets maxUnrollInstrs: three nested 16-trip
	// loops over packet-derived values were unrolled two levels deep
	// (1,953 instructions and 50 ms against clang's 120 and 28 ms), and
	// a 50-trip search of a buffer 8x clang's code.
	maxUnrollInstrs  = 300
	maxFoldingInstrs = 1000
	// A loop that can leave early on what a volatile load read (see
	// exits) gets clang's base threshold: clang unrolls a search of 16
	// loader-filled entries and keeps one of 32 a loop.
	maxEarlyExitInstrs = 150
	maxUnrollFunc      = 4000
	maxUnrolls         = 64 // loops unrolled per function
	// Past maxUnrollFunc, loops are still unrolled within the same
	// limits (clang's unroller has no function budget: falco's cgroup
	// path walk, whose count a later test makes precise, stayed a loop in
	// large programs and the verifier walked the code after it once per
	// count), but only while the function has had fewer than
	// maxLargeUnrolls: each unrolling costs an analysis of all of it.
	maxLargeUnrolls = 16
)

// Full-unrolling limits of a loop whose pragma asks for it (ir.Unroll),
// after clang's for such loops (a budget of 16k instructions for the
// unrolled loop): the program's author decided, so they are wider.
const (
	maxPragmaTrips  = 1024
	maxPragmaInstrs = 16384
	maxPragmaFunc   = 30000 // IR instructions of the function once unrolled
	maxPragmaUnroll = 1024
)

// unrollLoops fully unrolls natural loops whose trip count is a
// compile-time constant and whose copies stay small. The verifier cannot
// bound some loops that clang unrolls (a pointer walking a stack array, or
// array indexing by the induction variable), and constant propagation folds
// the induction variable of the copies.
//
// The trip count comes from simulating the registers the exit test depends
// on: they must be computed only by arithmetic in blocks that run exactly
// once per iteration (blocks that dominate the single latch and lie on no
// inner cycle), from values known at loop entry. The last copy's back edge
// goes to the original loop, which becomes unreachable once propagation
// decides the last exit test; if it could not, the program stays correct.
//
// unrollLoops is the step of a loop entry in the pass table: it unrolls one
// loop (its n-th) and reports whether it did; the entry's body passes (value
// propagation, unreachable-block removal) then run before the next step.
func unrollLoops(f *ir.Func, _ *passCtx, n int) bool {
	return unrollOne(f, n, instrCount(f))
}

// instrCount is f's IR instructions: the unroller's budgets count them
// all. (Not inlining's size, which counts copies and jumps free: measured
// so, bench's three nested 16-trip loops were unrolled a level deeper,
// 1,953 -> 6,553 instructions and 0.2 -> 0.8 s, against clang's 40 ms.)
func instrCount(f *ir.Func) int {
	n := 0
	for _, b := range f.Blocks {
		n += len(b.Instrs)
	}
	return n
}

// natLoop is a natural loop with a single latch.
type natLoop struct {
	head, latch *ir.Block
	body        []*ir.Block // in function order, head included
	in          map[*ir.Block]bool
}

// unrollOne unrolls one loop of f, which has had rounds unrollings and
// has size IR instructions.
func unrollOne(f *ir.Func, rounds, size int) bool {
	auto := rounds < maxUnrolls && size < maxUnrollFunc
	large := !auto && rounds < maxLargeUnrolls && size < maxPragmaFunc
	if !auto && !large && (rounds >= maxPragmaUnroll || size >= maxPragmaFunc) {
		return false
	}
	renumber(f)
	loops, idom := findLoops(f)
	// Outer loops first: unrolling them makes inner trip counts constant.
	slices.SortStableFunc(loops, func(a, b *natLoop) int { return len(b.body) - len(a.body) })
	var va *valueAnalysis
	for _, l := range loops {
		maxTrips, maxInstrs := maxUnrollTrips, maxUnrollInstrs
		switch u := l.latch.Term().Unroll; {
		case u == ir.UnrollNever:
			continue
		case u > 0:
			// unroll(N) of an N-iteration loop unrolls it whole, as
			// clang does: a loop tested at its head runs the test N+1
			// times (trips counts the copies, the last one leaving).
			maxTrips, maxInstrs = min(int(u)+1, maxPragmaTrips), maxPragmaInstrs
		case !auto && !large:
			continue
		case exits(l) > 1 && readsVolatile(l):
			// Nothing in its copies folds: only clang's base threshold.
			maxInstrs = maxEarlyExitInstrs
		}
		if va == nil {
			va = newValueAnalysis(f)
			va.solve()
		}
		trips, ok := tripCount(f, va, l, idom, maxTrips)
		if !ok {
			continue
		}
		pragma := l.latch.Term().Unroll > 0
		n, all := 0, 0
		for _, b := range l.body {
			all += len(b.Instrs)
			for _, in := range b.Instrs {
				// A pragma's budget is clang's pragma threshold, in
				// its cost: copies and jumps are free (tracee's
				// 600-trip module walk: 25 instructions a copy in
				// clang's object, kept a loop over 2x its verified
				// instructions).
				if !pragma || in.Op != ir.OpMov && in.Op != ir.OpJump {
					n++
				}
			}
		}
		if trips > maxTrips {
			continue
		}
		if pragma && size+trips*all > maxPragmaFunc {
			// All of the function's instructions, copies included,
			// within what BPF's 16-bit jumps reach (strobemeta's
			// on_event went over 32,767 with its copies free).
			continue
		}
		if trips*n > maxInstrs && !(maxInstrs == maxUnrollInstrs && trips*n <= maxFoldingInstrs && foldsAway(f, va, l)) {
			continue
		}
		unroll(f, l, trips)
		return true
	}
	return false
}

// exits counts the ways out of l: edges to blocks outside it and returns.
// Without a pragma, a loop that can leave early on what a volatile load
// read (a search of a `const volatile` array the loader fills) is unrolled
// only within clang's base threshold: no copy can fold, each only repeats
// the load, the test and the exit path, and the verifier bounds the loop
// as it is. One that calls a helper is unrolled as any other, as clang
// unrolls it: a two-trip loop over ctx->args[i] then reads the context at
// constant offsets ("dereference of modified ctx ptr" otherwise).
func exits(l *natLoop) int {
	n := 0
	for _, b := range l.body {
		t := b.Term()
		if t == nil {
			continue
		}
		if t.Op == ir.OpRet {
			n++
		}
		for _, s := range b.Succs() {
			if !l.in[s] {
				n++
			}
		}
	}
	return n
}

func readsVolatile(l *natLoop) bool {
	for _, b := range l.body {
		for _, in := range b.Instrs {
			if in.Op == ir.OpLoad && in.Volatile {
				return true
			}
		}
	}
	return false
}

// dominators computes each block's immediate dominator (by index; -1 for
// the entry and unreachable blocks).
func dominators(f *ir.Func) []int {
	n := len(f.Blocks)
	preds := make([][]int, n)
	for _, b := range f.Blocks {
		for _, s := range b.Succs() {
			preds[s.ID] = append(preds[s.ID], b.ID)
		}
	}
	post := postorder(f)
	rpo := make([]int, n)
	for i := range rpo {
		rpo[i] = -1
	}
	for i, b := range post {
		rpo[b] = len(post) - 1 - i
	}
	idom := make([]int, n)
	for i := range idom {
		idom[i] = -1
	}
	idom[0] = 0
	intersect := func(a, b int) int {
		for a != b {
			for rpo[a] > rpo[b] {
				a = idom[a]
			}
			for rpo[b] > rpo[a] {
				b = idom[b]
			}
		}
		return a
	}
	for changed := true; changed; {
		changed = false
		for i := len(post) - 1; i >= 0; i-- {
			b := post[i]
			if b == 0 {
				continue
			}
			nd := -1
			for _, p := range preds[b] {
				if idom[p] < 0 {
					continue
				}
				if nd < 0 {
					nd = p
				} else {
					nd = intersect(p, nd)
				}
			}
			if nd >= 0 && idom[b] != nd {
				idom[b], changed = nd, true
			}
		}
	}
	idom[0] = -1
	return idom
}

// postorder lists f's reachable blocks (by index) in postorder from the
// entry; the blocks' IDs must be their indices (renumber).
func postorder(f *ir.Func) []int {
	seen := make([]bool, len(f.Blocks))
	var post []int
	var walk func(int)
	walk = func(i int) {
		seen[i] = true
		for _, s := range f.Blocks[i].Succs() {
			if !seen[s.ID] {
				walk(s.ID)
			}
		}
		post = append(post, i)
	}
	if len(f.Blocks) > 0 {
		walk(0)
	}
	return post
}

// reversePostorder is postorder reversed: a block after its dominators,
// and a join after the blocks of its forward edges.
func reversePostorder(f *ir.Func) []int {
	post := postorder(f)
	slices.Reverse(post)
	return post
}

// domIntervals numbers the dominator tree given by idom in depth-first
// order: a dominates b when b's interval lies within a's. Unreachable blocks
// get none (pre -1).
func domIntervals(idom []int) (pre, post []int) {
	n := len(idom)
	pre, post = make([]int, n), make([]int, n)
	kids := make([][]int, n)
	for b, d := range idom {
		pre[b] = -1
		if d >= 0 {
			kids[d] = append(kids[d], b)
		}
	}
	if n == 0 {
		return pre, post
	}
	clock := 0
	var walk func(int)
	walk = func(b int) {
		pre[b] = clock
		clock++
		for _, k := range kids[b] {
			walk(k)
		}
		post[b] = clock
	}
	walk(0)
	return pre, post
}

// findLoops returns the natural loops whose header has one back edge, and
// the function's dominators.
func findLoops(f *ir.Func) ([]*natLoop, []int) {
	idom := dominators(f)
	pre, post := domIntervals(idom)
	// Whether a dominates b, without walking b's dominators.
	dom := func(a, b int) bool {
		if pre[a] < 0 || pre[b] < 0 {
			return a == b
		}
		return pre[a] <= pre[b] && post[b] <= post[a]
	}
	latches := map[*ir.Block][]*ir.Block{}
	for _, b := range f.Blocks {
		for _, s := range b.Succs() {
			if dom(s.ID, b.ID) {
				latches[s] = append(latches[s], b)
			}
		}
	}
	preds := map[*ir.Block][]*ir.Block{}
	for _, b := range f.Blocks {
		for _, s := range b.Succs() {
			preds[s] = append(preds[s], b)
		}
	}
	var loops []*natLoop
	for _, h := range f.Blocks {
		ls := latches[h]
		if len(ls) != 1 {
			continue
		}
		l := &natLoop{head: h, latch: ls[0], in: map[*ir.Block]bool{h: true}, body: []*ir.Block{h}}
		work := []*ir.Block{ls[0]}
		for len(work) > 0 {
			b := work[len(work)-1]
			work = work[:len(work)-1]
			if l.in[b] {
				continue
			}
			l.in[b] = true
			l.body = append(l.body, b)
			work = append(work, preds[b]...)
		}
		// In function order (IDs are indices), without a walk of the
		// whole function per loop.
		slices.SortFunc(l.body, func(a, b *ir.Block) int { return a.ID - b.ID })
		loops = append(loops, l)
	}
	return loops, idom
}

// onInnerCycle reports whether b lies on a cycle of l that avoids l's head.
func onInnerCycle(l *natLoop, b *ir.Block) bool {
	seen := map[*ir.Block]bool{}
	work := slices.Clone(b.Succs())
	for len(work) > 0 {
		x := work[len(work)-1]
		work = work[:len(work)-1]
		if x == b {
			return true
		}
		if seen[x] || !l.in[x] || x == l.head {
			continue
		}
		seen[x] = true
		work = append(work, x.Succs()...)
	}
	return false
}

// tripCount returns how many copies of l's body run before the loop exits,
// if at most maxTrips; idom are f's dominators.
func tripCount(f *ir.Func, va *valueAnalysis, l *natLoop, idom []int, maxTrips int) (int, bool) {
	// The exit test: the head's or the latch's branch, one way out.
	var test *ir.Block
	for _, b := range []*ir.Block{l.head, l.latch} {
		t := b.Term()
		if t != nil && t.Op == ir.OpBranch && l.in[t.Then] != l.in[t.Else] {
			test = b
			break
		}
	}
	if test == nil {
		return 0, false
	}
	// The spine: loop blocks dominating the latch, outermost first.
	var spine []*ir.Block
	for b := l.latch.ID; b >= 0; b = idom[b] {
		spine = append(spine, f.Blocks[b])
		if b == l.head.ID {
			break
		}
	}
	slices.Reverse(spine)
	if spine[0] != l.head {
		return 0, false
	}
	onSpine := map[*ir.Block]bool{}
	for _, b := range spine {
		onSpine[b] = !onInnerCycle(l, b)
	}
	// The backward slice of the exit test within the loop.
	slice := map[ir.Reg]bool{}
	var work []ir.Reg
	need := func(o ir.Operand) {
		if !o.IsImm && !slice[o.Reg] {
			slice[o.Reg] = true
			work = append(work, o.Reg)
		}
	}
	t := test.Term()
	need(t.A)
	need(t.B)
	defsOf := map[ir.Reg][]*ir.Instr{}
	blockOf := map[*ir.Instr]*ir.Block{}
	for _, b := range l.body {
		for _, in := range b.Instrs {
			if in.Dst != 0 {
				defsOf[in.Dst] = append(defsOf[in.Dst], in)
				blockOf[in] = b
			}
		}
	}
	for len(work) > 0 {
		r := work[len(work)-1]
		work = work[:len(work)-1]
		for _, in := range defsOf[r] {
			switch in.Op {
			case ir.OpMov, ir.OpALU, ir.OpNeg, ir.OpExt, ir.OpBswap, ir.OpFrameAddr:
			default:
				return 0, false
			}
			if !onSpine[blockOf[in]] {
				return 0, false
			}
			forEachUse(in, func(o *ir.Operand) { need(*o) })
		}
	}
	entry := loopEntry(f, va, l)
	if entry == nil {
		return 0, false
	}
	st := &vstate{}
	for _, e := range entry.regs {
		if slice[e.r] {
			st.regs = append(st.regs, e)
		}
	}
	for trips := 1; trips <= maxTrips; trips++ {
		for _, b := range spine {
			for _, in := range b.Instrs {
				if in.Dst != 0 && slice[in.Dst] {
					va.transfer(st, in, false)
					st.mem = nil
				}
			}
			if b == test {
				taken, ok := va.decide(st, t)
				if !ok {
					return 0, false
				}
				next := t.Else
				if taken {
					next = t.Then
				}
				if !l.in[next] {
					return trips, true
				}
			}
		}
	}
	return 0, false
}

// loopEntry is the values at l's entry: the meet over the head's outside
// predecessors (nil: not reached).
func loopEntry(f *ir.Func, va *valueAnalysis, l *natLoop) *vstate {
	var entry *vstate
	for _, p := range f.Blocks {
		if l.in[p] || va.in[p.ID] == nil || !slices.Contains(p.Succs(), l.head) {
			continue
		}
		st := va.in[p.ID].clone()
		for _, in := range p.Instrs {
			va.transfer(st, in, false)
		}
		if entry == nil {
			entry = st
		} else {
			entry.meet(st)
		}
	}
	return entry
}

// foldsAway reports whether l computes only from constants: arithmetic and
// branches, and every register whose value at its entry it reads holds a
// constant there. Its unrolled copies then fold to constants
// (nested_loops' prime count).
func foldsAway(f *ir.Func, va *valueAnalysis, l *natLoop) bool {
	used := map[ir.Reg]bool{}
	for _, b := range l.body {
		for _, in := range b.Instrs {
			switch in.Op {
			case ir.OpMov, ir.OpALU, ir.OpNeg, ir.OpExt, ir.OpBswap, ir.OpBranch, ir.OpJump:
			default:
				return false
			}
			forEachUse(in, func(o *ir.Operand) { used[o.Reg] = true })
		}
	}
	if va.live == nil {
		return false
	}
	entry := loopEntry(f, va, l)
	if entry == nil {
		return false
	}
	folds := true
	va.live.ForEachIn(l.head.ID, func(r int) {
		if used[ir.Reg(r)] && entry.regs.get(ir.Reg(r)).k != vConst {
			folds = false
		}
	})
	return folds
}

// unroll replaces l by trips chained copies of its body.
func unroll(f *ir.Func, l *natLoop, trips int) {
	copies := make([]map[*ir.Block]*ir.Block, trips)
	for j := range copies {
		m := map[*ir.Block]*ir.Block{}
		for _, b := range l.body {
			m[b] = &ir.Block{}
		}
		copies[j] = m
	}
	var added []*ir.Block
	for j, m := range copies {
		for _, b := range l.body {
			nb := m[b]
			for _, in := range b.Instrs {
				ni := *in
				ni.Args = slices.Clone(in.Args)
				retarget := func(t *ir.Block) *ir.Block {
					switch {
					case t == nil || !l.in[t]:
						return t
					case t == l.head && b == l.latch:
						if j+1 < trips {
							return copies[j+1][l.head]
						}
						return l.head
					}
					return m[t]
				}
				ni.Then, ni.Else = retarget(in.Then), retarget(in.Else)
				nb.Instrs = append(nb.Instrs, &ni)
			}
			added = append(added, nb)
		}
	}
	first := copies[0][l.head]
	for _, b := range f.Blocks {
		if l.in[b] {
			continue
		}
		if t := b.Term(); t != nil {
			if t.Then == l.head {
				t.Then = first
			}
			if t.Else == l.head {
				t.Else = first
			}
		}
	}
	at := slices.Index(f.Blocks, l.head)
	if at == 0 {
		at = 1 // the entry block stays first
	}
	f.Blocks = slices.Insert(f.Blocks, at, added...)
	renumber(f)
}
