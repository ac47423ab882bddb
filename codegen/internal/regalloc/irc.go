package regalloc

import "math"

// Result is the outcome of one allocation round.
type Result struct {
	// Color maps every register to a physical register 0..K-1, or -1 when it
	// was spilled or never occurs.
	Color []int
	// Spilled lists the registers that must live in memory, in increasing
	// order. When it is non-empty Color is incomplete: rewrite the function
	// with spill code and allocate again.
	Spilled []int
}

type nodeState uint8

const (
	stNone nodeState = iota
	stPrecolored
	stSimplify
	stFreeze
	stSpill
	stSpilled
	stCoalesced
	stColored
	stSelect
)

type moveState uint8

const (
	mvWorklist moveState = iota
	mvActive
	mvCoalesced
	mvConstrained
	mvFrozen
)

type move struct{ dst, src int }

type allocator struct {
	f    *Func
	k, n int
	// adjSet is the interference matrix, n×n bits. Over maxAdjMatrix
	// registers the graph is sparse: adjMap holds the edges while build
	// adds them (u<<32|v, u < v), then the adjacency lists answer alone,
	// with preAdj (K×n bits) for the edges of precoloured nodes, which
	// keep no list.
	adjSet   []uint64
	adjMap   map[uint64]struct{}
	sparse   bool
	preAdj   []uint64
	adjList  [][]int
	degree   []int
	moveList [][]int
	alias    []int
	color    []int
	state    []nodeState
	cost     []float64

	moves     []move
	moveState []moveState
	// failed counts each move's failed coalescing tests (see
	// maxCoalesceTries).
	failed []uint8

	simplify, freeze, spill, worklistMoves workset
	selectStack                            []int

	// seen and epoch mark the neighbours conservative has counted.
	seen  []uint32
	epoch uint32
	// edges counts the edges added, for tests: coalescing must not copy
	// adjacency quadratically.
	edges int
	// nbr and nbrEpoch mark the neighbours of the node combine merges
	// into, on a sparse graph.
	nbr      []uint32
	nbrEpoch uint32
}

const infDegree = math.MaxInt32 / 2

// Preference lists physical registers in the order colours are tried; nil
// means 0..K-1.
type Preference []int

// Allocate colours f's registers with K colours, coalescing moves where that
// is safe. pref orders the colours tried for each register.
func Allocate(f *Func, pref Preference) Result {
	a := &allocator{f: f, k: f.K, n: f.N}
	return a.run(pref)
}

func (a *allocator) run(pref Preference) Result {
	if pref == nil {
		for i := 0; i < a.k; i++ {
			pref = append(pref, i)
		}
	}
	a.build()
	a.makeWorklist()
	for {
		switch {
		case !a.simplify.Empty():
			a.doSimplify()
		case !a.worklistMoves.Empty():
			a.coalesce()
		case !a.freeze.Empty():
			a.doFreeze()
		case !a.spill.Empty():
			a.selectSpill()
		default:
			return a.assignColors(pref)
		}
	}
}

func (a *allocator) build() {
	n := a.n
	if n <= maxAdjMatrix {
		a.adjSet = make([]uint64, (n*n+63)/64)
	} else {
		a.adjMap = map[uint64]struct{}{}
		a.preAdj = make([]uint64, (a.k*n+63)/64)
		a.nbr = make([]uint32, n)
	}
	a.adjList = make([][]int, n)
	a.degree = make([]int, n)
	a.moveList = make([][]int, n)
	a.alias = make([]int, n)
	a.color = make([]int, n)
	a.state = make([]nodeState, n)
	a.cost = make([]float64, n)
	a.seen = make([]uint32, n)
	a.simplify, a.freeze, a.spill = newWorkset(n), newWorkset(n), newWorkset(n)
	for i := range a.color {
		a.color[i] = -1
		a.alias[i] = i
	}
	for i := 0; i < a.k && i < n; i++ {
		a.state[i] = stPrecolored
		a.color[i] = i
		a.degree[i] = infDegree
	}
	present := NewBitset(n)
	lv := Liveness(a.f)
	live := newLiveSet(NewBitset(n))
	var moveIdx []int // per block-instruction move ids, built on the fly
	for bi := range a.f.Blocks {
		b := &a.f.Blocks[bi]
		live.reset()
		lv.ForEachOut(bi, live.Add)
		w := b.Weight
		if w <= 0 {
			w = 1
		}
		for ii := len(b.Insns) - 1; ii >= 0; ii-- {
			ins := &b.Insns[ii]
			for _, r := range ins.Uses {
				present.Add(r)
				a.cost[r] += w
			}
			for _, r := range ins.Defs {
				present.Add(r)
				a.cost[r] += w
			}
			if ins.Move && len(ins.Uses) == 1 && len(ins.Defs) == 1 && ins.Uses[0] != ins.Defs[0] {
				live.Remove(ins.Uses[0])
				id := len(a.moves)
				a.moves = append(a.moves, move{dst: ins.Defs[0], src: ins.Uses[0]})
				a.moveState = append(a.moveState, mvWorklist)
				a.failed = append(a.failed, 0)
				a.moveList[ins.Defs[0]] = append(a.moveList[ins.Defs[0]], id)
				a.moveList[ins.Uses[0]] = append(a.moveList[ins.Uses[0]], id)
				moveIdx = append(moveIdx, id)
			}
			for _, d := range ins.Defs {
				live.Add(d)
			}
			for _, d := range ins.Defs {
				live.ForEach(func(l int) { a.addEdge(l, d) })
			}
			for _, d := range ins.Defs {
				live.Remove(d)
			}
			for _, u := range ins.Uses {
				live.Add(u)
			}
		}
	}
	a.worklistMoves = newWorkset(len(a.moves))
	for _, id := range moveIdx {
		a.worklistMoves.Add(id)
	}
	for r := a.k; r < n; r++ {
		if present.Has(r) {
			a.state[r] = stSimplify // placeholder, fixed in makeWorklist
		}
	}
	if a.adjMap != nil {
		a.adjMap, a.sparse = nil, true
	}
}

// maxAdjMatrix bounds the registers whose interference is a bit matrix
// (8 MB): the matrix of a 5,000-line function's 30,000 is over 100 MB.
var maxAdjMatrix = 8192

func adjKey(u, v int) uint64 {
	if u > v {
		u, v = v, u
	}
	return uint64(u)<<32 | uint64(v)
}

func (a *allocator) adj(u, v int) bool {
	switch {
	case a.sparse:
		if u < a.k || v < a.k {
			return a.preAdjHas(u, v)
		}
		// Scan the shorter list: every edge of a node that keeps a list
		// is in it (with neighbours since coalesced, which never match a
		// node still standing).
		if len(a.adjList[v]) < len(a.adjList[u]) {
			u, v = v, u
		}
		for _, t := range a.adjList[u] {
			if t == v {
				return true
			}
		}
		return false
	case a.adjMap != nil:
		_, ok := a.adjMap[adjKey(u, v)]
		return ok
	}
	i := u*a.n + v
	return a.adjSet[i/64]&(1<<(uint(i)%64)) != 0
}

// preAdjHas reports an edge of a precoloured node (u or v below K).
func (a *allocator) preAdjHas(u, v int) bool {
	if u >= a.k {
		u, v = v, u
	}
	i := u*a.n + v
	return a.preAdj[i/64]&(1<<(uint(i)%64)) != 0
}

func (a *allocator) setAdj(u, v int) {
	if a.preAdj != nil {
		if u < a.k {
			i := u*a.n + v
			a.preAdj[i/64] |= 1 << (uint(i) % 64)
		}
		if !a.sparse {
			a.adjMap[adjKey(u, v)] = struct{}{}
		}
		return
	}
	i := u*a.n + v
	a.adjSet[i/64] |= 1 << (uint(i) % 64)
}

func (a *allocator) addEdge(u, v int) {
	if u == v || a.adj(u, v) {
		return
	}
	a.newEdge(u, v)
}

// newEdge records the edge u–v, which is not in the graph yet.
func (a *allocator) newEdge(u, v int) {
	a.edges++
	a.setAdj(u, v)
	a.setAdj(v, u)
	if a.state[u] != stPrecolored {
		a.adjList[u] = append(a.adjList[u], v)
		a.degree[u]++
	}
	if a.state[v] != stPrecolored {
		a.adjList[v] = append(a.adjList[v], u)
		a.degree[v]++
	}
}

func (a *allocator) makeWorklist() {
	for r := a.k; r < a.n; r++ {
		if a.state[r] != stSimplify {
			continue
		}
		switch {
		case a.degree[r] >= a.k:
			a.setState(r, stSpill)
		case a.moveRelated(r):
			a.setState(r, stFreeze)
		default:
			a.setState(r, stSimplify)
		}
	}
}

// setState moves r between worklists.
func (a *allocator) setState(r int, s nodeState) {
	a.simplify.Remove(r)
	a.freeze.Remove(r)
	a.spill.Remove(r)
	a.state[r] = s
	switch s {
	case stSimplify:
		a.simplify.Add(r)
	case stFreeze:
		a.freeze.Add(r)
	case stSpill:
		a.spill.Add(r)
	}
}

func (a *allocator) nodeMoves(r int, fn func(id int)) {
	for _, id := range a.moveList[r] {
		if s := a.moveState[id]; s == mvActive || s == mvWorklist {
			fn(id)
		}
	}
}

func (a *allocator) moveRelated(r int) bool {
	for _, id := range a.moveList[r] {
		if s := a.moveState[id]; s == mvActive || s == mvWorklist {
			return true
		}
	}
	return false
}

func (a *allocator) adjacent(r int, fn func(int)) {
	for _, t := range a.adjList[r] {
		if s := a.state[t]; s != stSelect && s != stCoalesced {
			fn(t)
		}
	}
}

func (a *allocator) doSimplify() {
	r := a.simplify.First()
	a.simplify.Remove(r)
	a.state[r] = stSelect
	a.selectStack = append(a.selectStack, r)
	a.adjacent(r, a.decrementDegree)
}

func (a *allocator) decrementDegree(m int) {
	if a.state[m] == stPrecolored {
		return
	}
	d := a.degree[m]
	a.degree[m]--
	if d != a.k {
		return
	}
	a.enableMoves(m)
	a.adjacent(m, a.enableMoves)
	if a.state[m] == stSpill {
		if a.moveRelated(m) {
			a.setState(m, stFreeze)
		} else {
			a.setState(m, stSimplify)
		}
	}
}

func (a *allocator) enableMoves(r int) {
	a.nodeMoves(r, func(id int) {
		if a.moveState[id] == mvActive {
			a.moveState[id] = mvWorklist
			a.worklistMoves.Add(id)
		}
	})
}

// getAlias returns the node r was coalesced into. It shortens the chain it
// walked to one step: a long function coalesces thousands of moves into
// one chain, and walking it for every neighbour was 4e8 steps in a
// 5,000-line body.
func (a *allocator) getAlias(r int) int {
	root := r
	for a.state[root] == stCoalesced {
		root = a.alias[root]
	}
	for r != root {
		r, a.alias[r] = a.alias[r], root
	}
	return root
}

func (a *allocator) addWorkList(u int) {
	if a.state[u] != stPrecolored && !a.moveRelated(u) && a.degree[u] < a.k && a.state[u] == stFreeze {
		a.setState(u, stSimplify)
	}
}

func (a *allocator) ok(t, r int) bool {
	return a.degree[t] < a.k || a.state[t] == stPrecolored || a.adj(t, r)
}

// conservative is Briggs's test: u and v may be combined when fewer than
// K of their neighbours have significant degree. It stops at the K-th, and
// marks the neighbours counted with an epoch instead of a set, so that the
// test costs no allocation: big functions run it for every move, on nodes
// with thousands of neighbours.
func (a *allocator) conservative(u, v int) bool {
	a.epoch++
	k := 0
	for _, r := range [2]int{u, v} {
		a.dropStale(r)
		for _, t := range a.adjList[r] {
			if a.seen[t] == a.epoch {
				continue
			}
			a.seen[t] = a.epoch
			if a.degree[t] >= a.k {
				if k++; k >= a.k {
					return false
				}
			}
		}
	}
	return true
}

// dropStale removes from the list of r, a node still in the graph, the
// neighbours that have left it: simplified ones (on the select stack, so
// coloured after r) and coalesced ones (their alias is in the list too,
// added when they were combined). No walk of r's list looks at either, so
// only the walks' cost changes: in a long function a node's list fills
// with thousands of them.
func (a *allocator) dropStale(r int) {
	l := a.adjList[r]
	j := 0
	for _, t := range l {
		if s := a.state[t]; s != stSelect && s != stCoalesced {
			l[j] = t
			j++
		}
	}
	a.adjList[r] = l[:j]
}

func (a *allocator) coalesce() {
	id := a.worklistMoves.First()
	a.worklistMoves.Remove(id)
	m := a.moves[id]
	x, y := a.getAlias(m.dst), a.getAlias(m.src)
	u, v := x, y
	if a.state[y] == stPrecolored {
		u, v = y, x
	}
	switch {
	case u == v:
		a.moveState[id] = mvCoalesced
		a.addWorkList(u)
	case a.state[v] == stPrecolored || a.adj(u, v):
		a.moveState[id] = mvConstrained
		a.addWorkList(u)
		a.addWorkList(v)
	case a.canCombine(u, v):
		// Merge the node with fewer neighbours into the other: combine
		// copies v's edges to u, and a chain of moves in a long function
		// (one variable's copies) otherwise copied the whole chain's
		// growing list at each link, quadratic in time and memory.
		if a.state[u] != stPrecolored && len(a.adjList[v]) > len(a.adjList[u]) {
			u, v = v, u
		}
		a.moveState[id] = mvCoalesced
		a.combine(u, v)
		a.addWorkList(u)
	case a.failed[id] >= maxCoalesceTries:
		// Given up: the move stays a move.
		a.moveState[id] = mvFrozen
		a.addWorkList(u)
		a.addWorkList(v)
	default:
		a.failed[id]++
		a.moveState[id] = mvActive
	}
}

// maxCoalesceTries bounds how often one move is tested: each neighbour whose
// degree falls to K re-enables it, and in a long function with long-lived
// values (five thousand statements reusing one) a move was retried hundreds
// of times, each test scanning thousands of neighbours: 5.3e9 steps, 18 s.
const maxCoalesceTries = 16

func (a *allocator) canCombine(u, v int) bool {
	if a.state[u] == stPrecolored {
		// George's test, stopping at the first neighbour that fails it:
		// a long function retries it on nodes of thousands of neighbours.
		for _, t := range a.adjList[v] {
			if s := a.state[t]; s != stSelect && s != stCoalesced && !a.ok(t, u) {
				return false
			}
		}
		return true
	}
	return a.conservative(u, v)
}

func (a *allocator) combine(u, v int) {
	a.setState(v, stCoalesced)
	a.alias[v] = u
	a.moveList[u] = append(a.moveList[u], a.moveList[v]...)
	a.enableMoves(v)
	if !a.sparse {
		a.adjacent(v, func(t int) {
			a.addEdge(t, u)
			a.decrementDegree(t)
		})
	} else {
		// The same edges, tested against marks on u's neighbours instead
		// of a scan per neighbour: a chain of coalesced moves in a long
		// function merges nodes of thousands of neighbours, thousands of
		// times.
		a.nbrEpoch++
		if a.state[u] != stPrecolored {
			for _, t := range a.adjList[u] {
				a.nbr[t] = a.nbrEpoch
			}
		}
		a.adjacent(v, func(t int) {
			if t != u && a.nbr[t] != a.nbrEpoch && (a.state[u] != stPrecolored || !a.preAdjHas(u, t)) {
				a.nbr[t] = a.nbrEpoch
				a.newEdge(t, u)
			}
			a.decrementDegree(t)
		})
	}
	if a.degree[u] >= a.k && a.state[u] == stFreeze {
		a.setState(u, stSpill)
	}
}

func (a *allocator) doFreeze() {
	u := a.freeze.First()
	a.setState(u, stSimplify)
	a.freezeMoves(u)
}

func (a *allocator) freezeMoves(u int) {
	a.nodeMoves(u, func(id int) {
		m := a.moves[id]
		v := a.getAlias(m.src)
		if v == a.getAlias(u) {
			v = a.getAlias(m.dst)
		}
		if a.moveState[id] == mvWorklist {
			a.worklistMoves.Remove(id)
		}
		a.moveState[id] = mvFrozen
		if a.state[v] == stFreeze && !a.moveRelated(v) && a.degree[v] < a.k {
			a.setState(v, stSimplify)
		}
	})
}

func (a *allocator) selectSpill() {
	best, bestCost := -1, math.Inf(1)
	a.spill.ForEach(func(r int) {
		c := a.cost[r] / float64(a.degree[r]+1)
		if a.f.NoSpill != nil && r < len(a.f.NoSpill) && a.f.NoSpill[r] {
			c = math.MaxFloat64 / 2
		}
		if best < 0 || c < bestCost {
			best, bestCost = r, c
		}
	})
	a.setState(best, stSimplify)
	a.freezeMoves(best)
}

func (a *allocator) assignColors(pref Preference) Result {
	var spilled []int
	used := make([]bool, a.k)
	for len(a.selectStack) > 0 {
		r := a.selectStack[len(a.selectStack)-1]
		a.selectStack = a.selectStack[:len(a.selectStack)-1]
		for i := range used {
			used[i] = false
		}
		for _, w := range a.adjList[r] {
			w = a.getAlias(w)
			if s := a.state[w]; s == stColored || s == stPrecolored {
				used[a.color[w]] = true
			}
		}
		c := a.biasedColor(r, used)
		if c < 0 {
			for _, p := range pref {
				if !used[p] {
					c = p
					break
				}
			}
		}
		if c < 0 {
			a.state[r] = stSpilled
			spilled = append(spilled, r)
			continue
		}
		a.state[r] = stColored
		a.color[r] = c
	}
	for r := a.k; r < a.n; r++ {
		if a.state[r] == stCoalesced {
			a.color[r] = a.color[a.getAlias(r)]
		}
	}
	res := Result{Color: a.color}
	if len(spilled) > 0 {
		// Sort for determinism.
		bs := NewBitset(a.n)
		for _, r := range spilled {
			bs.Add(r)
		}
		bs.ForEach(func(r int) { res.Spilled = append(res.Spilled, r) })
	}
	return res
}

// biasedColor picks the colour of a move partner of r when it is free, so
// that the move disappears.
func (a *allocator) biasedColor(r int, used []bool) int {
	for _, id := range a.moveList[r] {
		m := a.moves[id]
		p := a.getAlias(m.src)
		if p == a.getAlias(r) {
			p = a.getAlias(m.dst)
		}
		if s := a.state[p]; (s == stColored || s == stPrecolored) && !used[a.color[p]] {
			return a.color[p]
		}
	}
	return -1
}
