package opt

import (
	"slices"

	"github.com/bpfcc/bpfcc/ir"
)

// reuseValues (pass "cse") makes a recomputation of a pure value a copy of
// the register that already holds it: within a block and across blocks,
// when every path to the recomputation leaves the value in the same
// register (available expressions). Besides the instructions it saves,
// the verifier needs it: it learns bounds on the register a branch tests,
// and clang computes a value once, tests that register and uses it; a
// recomputation starts again without bounds (test_cls_redirect.c's
// `(ip->ihl - 5) * 4` after `ip->ihl <= 5` was tested on another copy).
//
// A global's address is available at every offset: sym+8 where sym+0 is
// in r becomes r + 8, which addrs2 folds into the loads and stores that
// use it (an ld_imm64, two instruction slots, per field or element of a
// global otherwise; a compare loop over a global string unrolled 16 times
// pays it 16 times).
//
// Calls end availability, as in reuseSymAddrs: keeping a value across one
// would take one of the four callee-saved registers.
func reuseValues(f *ir.Func, c *passCtx) {
	splitSymAddrs(f, c)
	renumber(f)
	n := len(f.Blocks)
	// seq numbers the instructions in block order: an available value's
	// age, for cutting what crosses a block edge to the newest.
	start := make([]int, n+1)
	for i, b := range f.Blocks {
		start[i+1] = start[i] + len(b.Instrs)
	}
	in := make([]availList, n)
	reached := make([]bool, n) // false: the top of the lattice
	reached[0] = true
	work := []int{0}
	queued := make([]bool, n)
	queued[0] = true
	var externs map[string]bool
	if c != nil {
		externs = c.externs
	}
	st := newAvailSet(externs)
	for len(work) > 0 {
		bi := work[0]
		work = work[1:]
		queued[bi] = false
		st.load(in[bi])
		for i, ins := range f.Blocks[bi].Instrs {
			st.transfer(ins, start[bi]+i, false)
		}
		out := st.newest(maxAcrossEdge)
		for _, s := range f.Blocks[bi].Succs() {
			changed := false
			if !reached[s.ID] {
				reached[s.ID] = true
				in[s.ID] = slices.Clone(out)
				changed = true
			} else {
				in[s.ID], changed = in[s.ID].meet(out)
			}
			if changed && !queued[s.ID] {
				queued[s.ID] = true
				work = append(work, s.ID)
			}
		}
	}
	reused := false
	for bi, b := range f.Blocks {
		if !reached[bi] {
			continue
		}
		st.load(in[bi])
		for i, ins := range b.Instrs {
			reused = st.transfer(ins, start[bi]+i, true) || reused
		}
	}
	if reuseTestedValues(f) {
		reused = true
	}
	if reused {
		// Uses read the original register, leaving the copies dead: a
		// copy per reuse would be a move for register allocation to
		// coalesce (thousands into one node in a long function).
		propagateCopies(f, c)
	}
}

// maxAcrossEdge bounds the values carried from a block to its successors
// (the newest are kept): each block's entry state is stored, and without a
// bound a long function's states grow with its length (quadratic memory).
// Values tested and used near each other are what the verifier needs.
const maxAcrossEdge = 32

// maxSymAge bounds, in instructions since its last use, how long a
// global's address stays available: the base of its other offsets lives
// in a register meanwhile, and with no rematerialisation in register
// allocation a long-lived one costs spills in a function under pressure
// (spill_sharing.c: 737 -> 796 instructions without a bound, 754 with).
const maxSymAge = 32

// exprKey names a pure computation by its operation and operands (operand
// registers replaced by the register they are copies of).
type exprKey struct {
	op     ir.Op
	alu    ir.ALU
	w32    bool
	signed bool
	bits   uint8
	a, b   ir.Operand
	// sym names the global of an OpSymAddr; its offset is held.off.
	sym string
	// slot is an OpFrameAddr's stack object (its offset is in a).
	slot *ir.Slot
	// core is an OpCore's relocation (its local value is in a): the
	// same relocation is the same value once the loader has applied it.
	core ir.CoreReloc
}

// mentions reports whether k reads r.
func (k exprKey) mentions(r ir.Reg) bool {
	return (!k.a.IsImm && k.a.Reg == r) || (!k.b.IsImm && k.b.Reg == r)
}

// held is a register holding a value, and the seq of the instruction
// that put it there; off is the offset of a global's address in r.
type held struct {
	r   ir.Reg
	seq int
	off int64
}

// availEntry is one fact of an availList: expression key is in register
// h.r, or (copy != 0) register copy is a copy of h.r.
type availEntry struct {
	key  exprKey
	copy ir.Reg
	h    held
}

// availList is what holds on entry to a block, a few dozen facts.
type availList []availEntry

// meet intersects l with o, reporting whether l changed.
func (l availList) meet(o availList) (availList, bool) {
	kept := l[:0]
	for _, e := range l {
		i := slices.IndexFunc(o, func(x availEntry) bool { return x.key == e.key && x.copy == e.copy })
		if i < 0 || o[i].h.r != e.h.r || o[i].h.off != e.h.off {
			continue
		}
		e.h.seq = max(e.h.seq, o[i].h.seq) // the same on every path: the newest age
		kept = append(kept, e)
	}
	return kept, len(kept) != len(l)
}

// availSet is what holds at a point inside a block: expressions whose value
// a register holds, and registers that are copies of others.
type availSet struct {
	exprs  map[exprKey]held
	copies map[ir.Reg]held
	// users indexes exprs and copies by the registers they depend on, so
	// a definition kills them without a scan; entries may be stale.
	users map[ir.Reg][]exprKey
	reps  map[ir.Reg][]ir.Reg
	// externs are the globals the loader places (passCtx.externs):
	// their addresses are not offsets of one another.
	externs map[string]bool
}

func newAvailSet(externs map[string]bool) *availSet {
	return &availSet{externs: externs, exprs: map[exprKey]held{}, copies: map[ir.Reg]held{}, users: map[ir.Reg][]exprKey{}, reps: map[ir.Reg][]ir.Reg{}}
}

// load makes s hold exactly l's facts.
func (s *availSet) load(l availList) {
	s.clear()
	for _, e := range l {
		if e.copy != 0 {
			s.addCopy(e.copy, e.h)
		} else {
			s.addExpr(e.key, e.h)
		}
	}
}

// newest returns s's max newest facts.
func (s *availSet) newest(max int) availList {
	l := make(availList, 0, len(s.exprs)+len(s.copies))
	for k, h := range s.exprs {
		l = append(l, availEntry{key: k, h: h})
	}
	for r, h := range s.copies {
		l = append(l, availEntry{copy: r, h: h})
	}
	// Each instruction adds one fact: seqs are distinct, the order total.
	slices.SortFunc(l, func(x, y availEntry) int { return y.h.seq - x.h.seq })
	if len(l) > max {
		l = l[:max]
	}
	return slices.Clip(l)
}

func (s *availSet) addExpr(k exprKey, h held) {
	s.exprs[k] = h
	s.users[h.r] = append(s.users[h.r], k)
	for _, o := range []ir.Operand{k.a, k.b} {
		if !o.IsImm && o.Reg != h.r {
			s.users[o.Reg] = append(s.users[o.Reg], k)
		}
	}
}

func (s *availSet) addCopy(r ir.Reg, h held) {
	s.copies[r] = h
	s.reps[h.r] = append(s.reps[h.r], r)
}

// kill forgets everything that depends on r's value.
func (s *availSet) kill(r ir.Reg) {
	for _, k := range s.users[r] {
		if h, ok := s.exprs[k]; ok && (h.r == r || k.mentions(r)) {
			delete(s.exprs, k)
		}
	}
	delete(s.users, r)
	delete(s.copies, r)
	for _, c := range s.reps[r] {
		if h, ok := s.copies[c]; ok && h.r == r {
			delete(s.copies, c)
		}
	}
	delete(s.reps, r)
}

func (s *availSet) clear() {
	if len(s.exprs)+len(s.copies) > 4*maxAcrossEdge {
		// clear costs a map's capacity: after a long block, start afresh
		// rather than pay that capacity at every later block.
		*s = *newAvailSet(s.externs)
		return
	}
	clear(s.exprs)
	clear(s.copies)
	clear(s.users)
	clear(s.reps)
}

// canon is o with a copied register replaced by its original.
func (s *availSet) canon(o ir.Operand) ir.Operand {
	if !o.IsImm {
		if h, ok := s.copies[o.Reg]; ok {
			return ir.R(h.r)
		}
	}
	return o
}

// key returns the expression ins computes, if it is one cse reuses.
func (s *availSet) key(ins *ir.Instr) (exprKey, bool) {
	switch ins.Op {
	case ir.OpALU:
		k := exprKey{op: ins.Op, alu: ins.ALU, w32: ins.W32, a: s.canon(ins.A), b: s.canon(ins.B)}
		if commutative(ins.ALU) && operandLess(k.b, k.a) {
			k.a, k.b = k.b, k.a
		}
		return k, true
	case ir.OpNeg:
		return exprKey{op: ins.Op, w32: ins.W32, a: s.canon(ins.A)}, true
	case ir.OpExt, ir.OpBswap:
		return exprKey{op: ins.Op, bits: uint8(ins.Bits), signed: ins.Signed, a: s.canon(ins.A)}, true
	case ir.OpSymAddr:
		return exprKey{op: ins.Op, sym: ins.Sym}, !s.externs[ins.Sym]
	case ir.OpFrameAddr:
		return exprKey{op: ins.Op, slot: ins.Slot, a: ir.Imm(ins.Off)}, true
	case ir.OpCore:
		// An unrolled loop over task->comm computed the member's
		// offset again in every copy (libbpfgo's iter selftest).
		if ins.Core == nil {
			return exprKey{}, false
		}
		return exprKey{op: ins.Op, core: *ins.Core, a: ir.Imm(ins.Imm)}, true
	}
	return exprKey{}, false
}

func operandLess(x, y ir.Operand) bool {
	if x.IsImm != y.IsImm {
		return !x.IsImm
	}
	if x.IsImm {
		return x.Imm < y.Imm
	}
	return x.Reg < y.Reg
}

// transfer applies ins to s; with rewrite it turns a recomputation into a
// copy, and reports that.
func (s *availSet) transfer(ins *ir.Instr, seq int, rewrite bool) bool {
	switch ins.Op {
	case ir.OpCall, ir.OpCallFunc, ir.OpAsm:
		s.clear()
		return false
	}
	d := ins.Dst
	if d == 0 {
		return false
	}
	k, isExpr := s.key(ins)
	var mov ir.Reg
	if ins.Op == ir.OpMov && !ins.A.IsImm {
		mov = s.canon(ins.A).Reg
	}
	if h, ok := s.exprs[k]; isExpr && ok {
		if h.r == d && (k.op != ir.OpSymAddr || ins.Off == h.off) {
			// d holds the value already: the unrolled copies of a loop
			// each set the register of a φ (`p = &a->times`) to it
			// again. The copy of d into itself is dead.
			if rewrite {
				*ins = ir.Instr{Op: ir.OpMov, Dst: d, A: ir.R(d), Pos: ins.Pos, Note: ins.Note}
			}
			return rewrite
		}
		if h.r != d && (k.op != ir.OpSymAddr || seq-h.seq <= maxSymAge && ins.Off-h.off == int64(int32(ins.Off-h.off))) {
			if delta := ins.Off - h.off; k.op == ir.OpSymAddr && delta != 0 {
				// Another offset of the same global: r + delta, the base
				// staying the one available register.
				if rewrite {
					*ins = ir.Instr{Op: ir.OpALU, ALU: ir.Add, Dst: d, A: ir.R(h.r), B: ir.Imm(delta), Pos: ins.Pos, Note: ins.Note}
				}
				s.kill(d)
				h.seq = seq
				s.exprs[k] = h
				return rewrite
			}
			if rewrite {
				*ins = ir.Instr{Op: ir.OpMov, Dst: d, A: ir.R(h.r), Pos: ins.Pos, Note: ins.Note}
			}
			s.kill(d)
			s.addCopy(d, held{r: h.r, seq: seq})
			if k.op == ir.OpSymAddr {
				h.seq = seq
				s.exprs[k] = h
			}
			return rewrite
		}
	}
	s.kill(d)
	switch {
	case isExpr && !k.mentions(d):
		s.addExpr(k, held{r: d, seq: seq, off: ins.Off})
	case mov != 0 && mov != d:
		s.addCopy(d, held{r: mov, seq: seq})
	}
	return false
}

// splitSymAddrs gives each address of a global used at two or more
// offsets a register of its own, copied into the one the code assigns: an
// unrolled loop reassigns one register with sym+0, sym+1, ..., and cse can
// only keep sym+0 available as the base of the others when nothing
// overwrites it.
func splitSymAddrs(f *ir.Func, c *passCtx) {
	offs := map[string]int64{}
	multi := map[string]bool{}
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			if in.Op != ir.OpSymAddr || c != nil && c.externs[in.Sym] {
				continue
			}
			if o, ok := offs[in.Sym]; ok && o != in.Off {
				multi[in.Sym] = true
			}
			offs[in.Sym] = in.Off
		}
	}
	if len(multi) == 0 {
		return
	}
	defs := defCounts(f)
	for _, b := range f.Blocks {
		for i := 0; i < len(b.Instrs); i++ {
			in := b.Instrs[i]
			if in.Op != ir.OpSymAddr || !multi[in.Sym] || defs[in.Dst] == 1 {
				continue
			}
			r := f.NewReg()
			b.Instrs = slices.Insert(b.Instrs, i+1, &ir.Instr{Op: ir.OpMov, Dst: in.Dst, A: ir.R(r), Pos: in.Pos})
			in.Dst = r
			i++
		}
	}
}
