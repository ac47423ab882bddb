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
	order := make([]int, 0, len(f.Blocks))
	for b := range f.Blocks {
		if pre[b] >= 0 {
			order = append(order, b)
		}
	}
	// Dominator-tree preorder: a definition that dominates a use is
	// numbered before it.
	slices.SortFunc(order, func(x, y int) int { return pre[x] - pre[y] })

	defs := defCounts(f)
	type site struct{ block, index int }
	defAt := map[ir.Reg]site{}
	vns := valueNumbers{table: map[vnKey]int{}, of: map[ir.Reg]int{}}
	for _, p := range f.Params {
		if defs[p] == 1 {
			defAt[p] = site{0, -1}
			vns.of[p] = vns.fresh()
		}
	}
	for _, bi := range order {
		for i, in := range f.Blocks[bi].Instrs {
			if in.Dst == 0 || defs[in.Dst] != 1 {
				continue
			}
			defAt[in.Dst] = site{bi, i}
			vns.number(in)
		}
	}
	tested := map[int][]ir.Reg{}
	for _, b := range f.Blocks {
		t := b.Term()
		if t == nil || t.Op != ir.OpBranch {
			continue
		}
		for _, o := range []ir.Operand{t.A, t.B} {
			if v, ok := vns.of[o.Reg]; ok && !o.IsImm && !slices.Contains(tested[v], o.Reg) {
				tested[v] = append(tested[v], o.Reg)
			}
		}
	}
	if len(tested) == 0 {
		return false
	}
	dominates := func(d site, bi, i int) bool {
		if d.block == bi {
			return d.index < i
		}
		return pre[d.block] <= pre[bi] && post[bi] <= post[d.block]
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

// vnKey is a pure computation over value numbers (an immediate operand is
// kept as itself, imm set).
type vnKey struct {
	op         ir.Op
	alu        ir.ALU
	w32        bool
	signed     bool
	bits       int
	a, b       int64
	aImm, bImm bool
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
	var ok bool
	if k.a, ok = vn.operand(in.A); !ok {
		vn.of[in.Dst] = vn.fresh()
		return
	}
	k.aImm = in.A.IsImm
	if in.Op == ir.OpALU {
		if k.b, ok = vn.operand(in.B); !ok {
			vn.of[in.Dst] = vn.fresh()
			return
		}
		k.bImm = in.B.IsImm
		if commutative(in.ALU) && (k.aImm && !k.bImm || k.aImm == k.bImm && k.b < k.a) {
			k.a, k.b, k.aImm, k.bImm = k.b, k.a, k.bImm, k.aImm
		}
	}
	v, ok := vn.table[k]
	if !ok {
		v = vn.fresh()
		vn.table[k] = v
	}
	vn.of[in.Dst] = v
}
