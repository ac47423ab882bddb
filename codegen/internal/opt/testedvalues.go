package opt

import (
	"slices"

	"github.com/bpfcc/bpfcc/ir"
)

// reuseTestedValues turns a computation of a value some branch has tested
// into a copy of the tested register, wherever that register's definition
// dominates the computation, and reports whether it changed anything.
//
// The verifier learns a register's range from the branches that read it; a
// value computed again from the same operands is a register it knows
// nothing of, so a path the first test ruled out is walked again (tetragon's
// filter_inet reassembles the packed `filter->type` from its bytes for a
// second switch, and dereferences a pointer only the first one made
// non-null). cse's available set carries only the newest few dozen values
// across block edges; this follows single-definition registers by value
// number over the whole function, as clang's GVN does, but only to tested
// registers, so no other value's live range grows.
func reuseTestedValues(f *ir.Func) bool {
	idom := dominators(f)
	pre, post := domIntervals(idom)
	domBlock := func(a, b int) bool { return pre[a] <= pre[b] && post[b] <= post[a] }
	defs := defCounts(f)
	phis := selectPhis(f, defs, domBlock)
	isPhi := map[ir.Reg]int{} // a select's register: its join
	for j, ps := range phis {
		stable := ps[:0]
		for _, p := range ps {
			if p.stable {
				isPhi[p.r] = j
				stable = append(stable, p)
			}
		}
		phis[j] = stable
	}
	type site struct{ block, index int }
	defAt := map[ir.Reg]site{}
	vns := valueNumbers{table: map[vnKey]int{}, of: map[ir.Reg]int{}}
	for _, p := range f.Params {
		if defs[p] == 1 {
			defAt[p] = site{0, -1}
			vns.of[p] = vns.fresh()
		}
	}
	// tested holds, by value number, the registers a branch reads where
	// they hold that value everywhere their definition dominates.
	tested := map[int][]ir.Reg{}
	test := func(bi int, o ir.Operand) {
		if o.IsImm {
			return
		}
		v, ok := vns.of[o.Reg]
		if j, phi := isPhi[o.Reg]; !ok || defs[o.Reg] != 1 && !(phi && domBlock(j, bi)) {
			return
		}
		if !slices.Contains(tested[v], o.Reg) {
			tested[v] = append(tested[v], o.Reg)
		}
	}
	// Reverse postorder: a definition that dominates a use is numbered
	// before it, and a join after the arms that set its selects.
	order := reversePostorder(f)
	for _, bi := range order {
		for _, p := range phis[bi] {
			defAt[p.r] = site{bi, -1}
			vns.numberSelect(p)
		}
		for i, in := range f.Blocks[bi].Instrs {
			switch {
			case in.Dst == 0:
			case defs[in.Dst] == 1:
				defAt[in.Dst] = site{bi, i}
				vns.number(in)
			case isPhi[in.Dst] != 0:
				// In its arm, a select's register holds the arm's
				// value; the join numbers it again.
				vns.number(in)
			default:
				delete(vns.of, in.Dst)
			}
			if in.Op == ir.OpBranch {
				test(bi, in.A)
				test(bi, in.B)
			}
		}
	}
	if len(tested) == 0 {
		return false
	}
	// The numbers of single definitions are final once the walk is done.
	dominates := func(d site, bi, i int) bool {
		if d.block == bi {
			return d.index < i
		}
		return domBlock(d.block, bi)
	}
	changed := false
	for _, bi := range order {
		for i, in := range f.Blocks[bi].Instrs {
			if in.Op == ir.OpMov || in.Dst == 0 || defs[in.Dst] != 1 {
				continue
			}
			v, ok := vns.of[in.Dst]
			if !ok {
				continue
			}
			for _, t := range tested[v] {
				if t != in.Dst && dominates(defAt[t], bi, i) {
					*in = ir.Instr{Op: ir.OpMov, Dst: in.Dst, A: ir.R(t), Pos: in.Pos, Note: in.Note}
					changed = true
					break
				}
			}
		}
	}
	return changed
}

// selectPhi is a register a two-way branch's arms each set once by a copy
// and that only its join and what the join dominates read after them: at
// the join it holds cond ? then : els (`min(a, b)`).
type selectPhi struct {
	r         ir.Reg
	cond      *ir.Instr
	then, els ir.Operand
	// thenB and elsB are the blocks of the copies (by index), thenI and
	// elsI their places there.
	thenB, elsB, thenI, elsI int
	// stable: the compared and copied values are constants or single
	// definitions, the same wherever the join is (value numbers need it).
	stable bool
}

// selectPhis finds the selects of f by the index of their join. An arm is
// a block of the branch's own that jumps to the join, or the branching
// block itself when its other side is the join (`r = b; if (a < b) r = a`).
func selectPhis(f *ir.Func, defs map[ir.Reg]int, dom func(a, b int) bool) map[int][]selectPhi {
	type def struct {
		block, index int
		in           *ir.Instr
	}
	twice := map[ir.Reg][]def{}
	for bi, b := range f.Blocks {
		for i, in := range b.Instrs {
			if in.Dst != 0 && defs[in.Dst] == 2 {
				twice[in.Dst] = append(twice[in.Dst], def{bi, i, in})
			}
		}
	}
	if len(twice) == 0 {
		return nil
	}
	npreds := make([]int, len(f.Blocks))
	for _, b := range f.Blocks {
		for _, s := range b.Succs() {
			npreds[s.ID]++
		}
	}
	// arm reports the join an arm block of branch block b jumps to.
	arm := func(a *ir.Block, b *ir.Block) (*ir.Block, bool) {
		t := a.Term()
		if a == b || npreds[a.ID] != 1 || t == nil || t.Op != ir.OpJump {
			return nil, false
		}
		return t.Then, true
	}
	type armed struct {
		join       int
		cond       *ir.Instr
		thenB, els int // the blocks whose copy each side's value is
	}
	var shapes []armed
	for bi, b := range f.Blocks {
		t := b.Term()
		if t == nil || t.Op != ir.OpBranch || t.Then == t.Else {
			continue
		}
		jt, okT := arm(t.Then, b)
		je, okE := arm(t.Else, b)
		switch {
		case okT && okE && jt == je && jt != b:
			shapes = append(shapes, armed{jt.ID, t, t.Then.ID, t.Else.ID})
		case okT && jt == t.Else:
			shapes = append(shapes, armed{jt.ID, t, t.Then.ID, bi})
		case okE && je == t.Then:
			shapes = append(shapes, armed{je.ID, t, bi, t.Else.ID})
		}
	}
	byArms := map[[2]int]armed{}
	for _, s := range shapes {
		byArms[[2]int{s.thenB, s.els}] = s
	}
	// What reads each register, by block.
	readers := map[ir.Reg][]int{}
	for bi, b := range f.Blocks {
		for _, in := range b.Instrs {
			forEachUse(in, func(o *ir.Operand) {
				if _, ok := twice[o.Reg]; ok {
					readers[o.Reg] = append(readers[o.Reg], bi)
				}
			})
		}
	}
	out := map[int][]selectPhi{}
	for r, ds := range twice {
		if len(ds) != 2 || ds[0].in.Op != ir.OpMov || ds[1].in.Op != ir.OpMov {
			continue
		}
		s, ok := byArms[[2]int{ds[0].block, ds[1].block}]
		x, y := ds[0], ds[1]
		if !ok {
			if s, ok = byArms[[2]int{ds[1].block, ds[0].block}]; !ok {
				continue
			}
			x, y = y, x
		}
		// The branching block's copy must come before its branch reads
		// anything of r's, and each copy's source hold its value to
		// the arm's end: single definitions or constants.
		single := func(o ir.Operand) bool { return o.IsImm || defs[o.Reg] == 1 }
		stable := single(x.in.A) && single(y.in.A) && single(s.cond.A) && single(s.cond.B)
		fine := true
		for _, bi := range readers[r] {
			if bi != x.block && bi != y.block && !dom(s.join, bi) {
				fine = false
				break
			}
		}
		if fine {
			out[s.join] = append(out[s.join], selectPhi{r: r, cond: s.cond, then: x.in.A, els: y.in.A, thenB: x.block, elsB: y.block, thenI: x.index, elsI: y.index, stable: stable})
		}
	}
	for _, ps := range out {
		slices.SortFunc(ps, func(a, b selectPhi) int { return int(a.r) - int(b.r) })
	}
	return out
}

// reversePostorder lists f's reachable blocks (by index) in reverse
// postorder from the entry; the blocks' IDs must be their indices
// (renumber).
func reversePostorder(f *ir.Func) []int {
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
	slices.Reverse(post)
	return post
}

// vnKey is a pure computation over value numbers: an operation's two
// operands, or a select's compared pair and its two values (imms marks
// the operands that are immediates, kept as themselves).
type vnKey struct {
	op     ir.Op
	alu    ir.ALU
	cond   ir.Cond
	w32    bool
	signed bool
	bits   int
	ops    [4]int64
	imms   uint8
}

// valueNumbers numbers the values of single-definition registers: two
// registers with one number hold the same value wherever both are
// defined.
type valueNumbers struct {
	table map[vnKey]int
	of    map[ir.Reg]int
	next  int
}

func (vn *valueNumbers) fresh() int {
	vn.next++
	return vn.next
}

// operand is o's number (an immediate stands for itself).
func (vn *valueNumbers) operand(o ir.Operand) (int64, bool) {
	if o.IsImm {
		return o.Imm, true
	}
	v, ok := vn.of[o.Reg]
	return int64(v), ok
}

// numberSelect numbers a select's register at its join: the same
// comparison choosing between the same values is the same value.
func (vn *valueNumbers) numberSelect(p selectPhi) {
	k := vnKey{op: ir.OpBranch, cond: p.cond.Cond, w32: p.cond.W32}
	for i, o := range []ir.Operand{p.cond.A, p.cond.B, p.then, p.els} {
		v, ok := vn.operand(o)
		if !ok {
			vn.of[p.r] = vn.fresh()
			return
		}
		k.ops[i] = v
		if o.IsImm {
			k.imms |= 1 << i
		}
	}
	vn.of[p.r] = vn.intern(k)
}

func (vn *valueNumbers) intern(k vnKey) int {
	v, ok := vn.table[k]
	if !ok {
		v = vn.fresh()
		vn.table[k] = v
	}
	return v
}

// number gives in's destination its value number: that of the register
// it copies, that of the same operation on the same numbers, or a new one.
func (vn *valueNumbers) number(in *ir.Instr) {
	k := vnKey{op: in.Op}
	switch in.Op {
	case ir.OpMov:
		if !in.A.IsImm {
			if v, ok := vn.of[in.A.Reg]; ok {
				vn.of[in.Dst] = v
				return
			}
			vn.of[in.Dst] = vn.fresh()
			return
		}
	case ir.OpALU:
		k.alu, k.w32 = in.ALU, in.W32
	case ir.OpNeg:
		k.w32 = in.W32
	case ir.OpExt, ir.OpBswap:
		k.bits, k.signed = in.Bits, in.Signed
	default:
		vn.of[in.Dst] = vn.fresh()
		return
	}
	operands := []ir.Operand{in.A}
	if in.Op == ir.OpALU {
		operands = append(operands, in.B)
	}
	for i, o := range operands {
		v, ok := vn.operand(o)
		if !ok {
			vn.of[in.Dst] = vn.fresh()
			return
		}
		k.ops[i] = v
		if o.IsImm {
			k.imms |= 1 << i
		}
	}
	if in.Op == ir.OpALU && commutative(in.ALU) {
		// Registers before immediates, then by number.
		aImm, bImm := k.imms&1 != 0, k.imms&2 != 0
		if aImm && !bImm || aImm == bImm && k.ops[1] < k.ops[0] {
			k.ops[0], k.ops[1] = k.ops[1], k.ops[0]
			if aImm != bImm {
				k.imms ^= 3
			}
		}
	}
	vn.of[in.Dst] = vn.intern(k)
}
