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
	if !vn.operands(&k, p.cond.A, p.cond.B, p.then, p.els) {
		vn.of[p.r] = vn.fresh()
		return
	}
	vn.of[p.r] = vn.intern(k)
}

// operands puts the numbers of ops into k, reporting false when one has
// none.
func (vn *valueNumbers) operands(k *vnKey, ops ...ir.Operand) bool {
	for i, o := range ops {
		v, ok := vn.operand(o)
		if !ok {
			return false
		}
		k.ops[i] = v
		if o.IsImm {
			k.imms |= 1 << i
		}
	}
	return true
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
	ops := []ir.Operand{in.A}
	if in.Op == ir.OpALU {
		ops = append(ops, in.B)
	}
	if !vn.operands(&k, ops...) {
		vn.of[in.Dst] = vn.fresh()
		return
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
