package opt

import (
	"slices"

	"github.com/bpfcc/bpfcc/codegen/internal/regalloc"
	"github.com/bpfcc/bpfcc/ir"
)

// propagateValues is a global forward dataflow over the (non-SSA) IR that
// tracks, per register, a known constant or a known stack address (slot +
// offset), and, per stack object whose address never escapes, the values
// stored at constant offsets. With the fixpoint it
//
//   - replaces uses of registers holding known constants with immediates and
//     decides branches on them (also for registers defined more than once,
//     such as loop counters after unrolling);
//   - turns address computations into single frame addresses and accesses
//     through them into slot-addressed (R10-relative) ones;
//   - folds differences and comparisons of addresses in the same object;
//   - forwards stored values to later loads of the same bytes;
//   - deletes the stores to non-escaping objects that are never loaded.
//
// An object escapes when its address (or a value derived from it) is stored
// to memory, passed to a call, returned or used by an atomic as a value.
// maxValueStates bounds blocks × registers for propagateValues, whose
// liveness sets grow with both (a bit each: 125 MB at the bound). Over it
// nothing is propagated, and what only propagation folds stays: 400
// million left datadog-agent's socket__classifier_dbs (13,329 blocks ×
// 38,025 registers, dozens of inlined bpf_memcmp switching on their
// length) with its __builtin_trap() reachable. The block states
// themselves hold only the registers live there. The bound was 8,000,000
// when states were dense; KubeArmor's unrolled switches
// (3,923 blocks × 2,043 registers) then went unfolded: a 48-byte struct
// stayed in memory and the frame over 512 bytes, and 5x clang's code.
const maxValueStates = 1_000_000_000

func propagateValues(f *ir.Func, c *passCtx) {
	if len(f.Blocks) == 0 || len(f.Blocks)*int(f.NextReg) > maxValueStates {
		return
	}
	va := newValueAnalysis(f)
	if c != nil {
		va.consts = c.consts
		va.externs = c.externs
	}
	va.solve()
	va.rewrite()
	va.deadStores()
	fillKilledStores(f, va.taint)
}

type valueAnalysis struct {
	f       *ir.Func
	in      []*vstate
	taint   map[ir.Reg]map[*ir.Slot]bool
	escaped map[*ir.Slot]bool
	// consts are the globals loads are folded from; zext the registers
	// known to be zero-extended from 32 bits (see zeroExtended).
	consts  map[string]*ir.Global
	externs map[string]bool
	zext    regFlags
	// live knows the registers live at each block's start: solve keeps
	// only those (and those memory entries name) in a block's state, since
	// no other register's value is read from it.
	live *regalloc.BlockLive
}

func newValueAnalysis(f *ir.Func) *valueAnalysis {
	renumber(f)
	va := &valueAnalysis{f: f, in: make([]*vstate, len(f.Blocks)), zext: zeroExtended(f)}
	va.escapes()
	return va
}

// escapes computes which slots each register may point into
// (flow-insensitively) and which slots escape.
func (va *valueAnalysis) escapes() {
	va.taint, va.escaped = slotTaint(va.f)
}

// slotTaint returns, flow-insensitively, the slots each register may point
// into, and the slots whose address escapes: stored to memory, passed to a
// call or asm, returned, or accessed volatile (and volatile slots).
func slotTaint(f *ir.Func) (taint map[ir.Reg]map[*ir.Slot]bool, escaped map[*ir.Slot]bool) {
	taint = map[ir.Reg]map[*ir.Slot]bool{}
	escaped = map[*ir.Slot]bool{}
	add := func(d ir.Reg, s *ir.Slot) bool {
		m := taint[d]
		if m == nil {
			m = map[*ir.Slot]bool{}
			taint[d] = m
		}
		if m[s] {
			return false
		}
		m[s] = true
		return true
	}
	for changed := true; changed; {
		changed = false
		for _, b := range f.Blocks {
			for _, in := range b.Instrs {
				switch in.Op {
				case ir.OpFrameAddr:
					changed = add(in.Dst, in.Slot) || changed
				case ir.OpMov, ir.OpALU, ir.OpNeg, ir.OpExt, ir.OpBswap:
					for _, o := range []ir.Operand{in.A, in.B} {
						if !o.IsImm {
							for s := range taint[o.Reg] {
								changed = add(in.Dst, s) || changed
							}
						}
					}
				}
			}
		}
	}
	esc := func(o ir.Operand) {
		if !o.IsImm {
			for s := range taint[o.Reg] {
				escaped[s] = true
			}
		}
	}
	for _, s := range f.Slots {
		if s != nil && s.Volatile {
			escaped[s] = true
		}
	}
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			switch in.Op {
			case ir.OpStore:
				esc(in.B)
			case ir.OpAtomic:
				esc(in.B)
				esc(in.C)
			case ir.OpCall, ir.OpCallFunc, ir.OpAsm:
				for _, a := range in.Args {
					esc(a)
				}
			case ir.OpRet:
				esc(in.A)
			}
			// A volatile access to a local (READ_ONCE or WRITE_ONCE of a
			// stack variable) is memory: the slot's value is not
			// tracked, and a write nothing reads is kept.
			if in.Volatile && (in.Op == ir.OpLoad || in.Op == ir.OpStore) {
				if in.Slot != nil {
					escaped[in.Slot] = true
				}
				esc(in.A)
			}
		}
	}
	return taint, escaped
}

func (va *valueAnalysis) tracked(s *ir.Slot) bool { return s != nil && !va.escaped[s] }

// solve iterates the transfer functions to a fixpoint.
func (va *valueAnalysis) solve() {
	va.live = liveness(va.f)
	entry := &vstate{}
	va.in[0] = entry
	work := []int{0}
	queued := make([]bool, len(va.f.Blocks))
	queued[0] = true
	for len(work) > 0 {
		bi := work[0]
		work = work[1:]
		queued[bi] = false
		st := va.in[bi].clone()
		b := va.f.Blocks[bi]
		for _, in := range b.Instrs {
			va.transfer(st, in, false)
		}
		for _, e := range va.edges(b, st) {
			s := e.to
			changed := false
			if va.in[s.ID] == nil {
				va.in[s.ID] = va.entryState(e.st, s.ID)
				changed = true
			} else {
				changed = va.in[s.ID].meet(e.st)
			}
			if changed && !queued[s.ID] {
				queued[s.ID] = true
				work = append(work, s.ID)
			}
		}
	}
}

// entryState is a copy of st holding the registers live at block bi's
// start and those st's memory entries name.
func (va *valueAnalysis) entryState(st *vstate, bi int) *vstate {
	n := &vstate{mem: slices.Clone(st.mem)}
	for _, e := range st.regs {
		if va.live.LiveIn(bi, int(e.r)) || st.names(e.r) {
			n.regs = append(n.regs, e)
		}
	}
	return n
}

// names reports whether a memory entry of st holds the value of r.
func (st *vstate) names(r ir.Reg) bool {
	for _, m := range st.mem {
		if !m.val.IsImm && m.val.Reg == r {
			return true
		}
	}
	return false
}

func (va *valueAnalysis) val(st *vstate, o ir.Operand) aval {
	if o.IsImm {
		return aval{k: vConst, c: o.Imm}
	}
	return st.regs.get(o.Reg)
}

// decide evaluates a branch whose outcome is known in st.
func (va *valueAnalysis) decide(st *vstate, t *ir.Instr) (bool, bool) {
	a, b := va.val(st, t.A), va.val(st, t.B)
	switch {
	case a.k == vConst && b.k == vConst:
		return ir.EvalCond(t.Cond, t.W32, a.c, b.c), true
	case t.Cond == ir.Set && (a.k == vConst && (a.c == 0 || t.W32 && uint32(a.c) == 0) || b.k == vConst && (b.c == 0 || t.W32 && uint32(b.c) == 0)):
		// x & 0 is never set, whatever x (falco's flags & MAP_FILE, a
		// 0 flag: the test kept as a branch made the verifier walk every
		// path of the tests before it apart, 417 -> 25,039 insns).
		return false, true
	case a.k == vFrame && b.k == vFrame && a.slot == b.slot && !t.W32 && a.c >= 0 && b.c >= 0 && t.Cond != ir.Set:
		return ir.EvalCond(t.Cond, false, a.c, b.c), true
	case !t.W32 && (t.Cond == ir.Eq || t.Cond == ir.Ne) &&
		((a.k == vFrame && b.k == vConst && b.c == 0) || (b.k == vFrame && a.k == vConst && a.c == 0)):
		return t.Cond == ir.Ne, true // a stack address is never NULL
	}
	return false, false
}

// address resolves the address of a memory access to slot + offset.
func (va *valueAnalysis) address(st *vstate, in *ir.Instr) (*ir.Slot, int64, bool) {
	if in.Core != nil {
		return nil, 0, false // the offset is the loader's, not known here
	}
	if in.Slot != nil {
		return in.Slot, in.Off, true
	}
	if a := va.val(st, in.A); a.k == vFrame {
		return a.slot, a.c + in.Off, true
	}
	return nil, 0, false
}

// clobber forgets what is known about the bytes [off, off+size) of s, or
// about all of s when size is 0.
func clobber(st *vstate, s *ir.Slot, off int64, size int) {
	kept := st.mem[:0]
	var rest []memEnt
	for _, e := range st.mem {
		if e.slot == s && (size == 0 || (e.off < off+int64(size) && off < e.off+int64(e.size))) {
			if size != 0 && e.val.IsImm {
				// The bytes of a known constant outside the new store stay
				// known (a struct zeroed, then fields written over it).
				for p := e.off; p < e.off+int64(e.size); p++ {
					if p < off || p >= off+int64(size) {
						b := uint64(e.val.Imm) >> (8 * (p - e.off)) & 0xff
						rest = append(rest, memEnt{slot: s, off: p, size: 1, val: ir.Imm(int64(b))})
					}
				}
			}
			continue
		}
		kept = append(kept, e)
	}
	st.mem = append(kept, rest...)
}

// loadValue looks up size bytes at s+off: an immediate (already extended
// as the load asks), a register stored with the same size, or nothing.
func loadValue(st *vstate, s *ir.Slot, off int64, size int, signed bool) (ir.Operand, bool) {
	for _, e := range st.mem {
		if e.slot == s && e.off == off && e.size == size && !e.val.IsImm {
			return e.val, true
		}
	}
	var v uint64
	for i := 0; i < size; i++ {
		found := false
		for _, e := range st.mem {
			p := off + int64(i)
			if e.slot == s && e.val.IsImm && e.off <= p && p < e.off+int64(e.size) {
				v |= (uint64(e.val.Imm) >> (8 * (p - e.off)) & 0xff) << (8 * i)
				found = true
				break
			}
		}
		if !found {
			return ir.Operand{}, false
		}
	}
	return ir.Imm(ir.EvalExt(int64(v), size*8, signed)), true
}

// transfer applies in to st. With rewrite set it also simplifies in.
func (va *valueAnalysis) transfer(st *vstate, in *ir.Instr, rewrite bool) {
	if rewrite {
		va.simplify(st, in)
	}
	res := aval{}
	switch in.Op {
	case ir.OpMov:
		res = va.val(st, in.A)
	case ir.OpALU:
		res = va.evalALU(st, in)
	case ir.OpNeg:
		if a := va.val(st, in.A); a.k == vConst {
			res = aval{k: vConst, c: ir.EvalALU(ir.Sub, in.W32, 0, a.c)}
		}
	case ir.OpExt:
		if a := va.val(st, in.A); a.k == vConst {
			res = aval{k: vConst, c: ir.EvalExt(a.c, in.Bits, in.Signed)}
		}
	case ir.OpBswap:
		if a := va.val(st, in.A); a.k == vConst {
			res = aval{k: vConst, c: ir.EvalBswap(a.c, in.Bits)}
		}
	case ir.OpFrameAddr:
		res = aval{k: vFrame, slot: in.Slot, c: in.Off}
	case ir.OpSymAddr:
		res = aval{k: vSym, sym: in.Sym, c: in.Off}
	case ir.OpLoad:
		if v, ok := va.symLoad(st, in); ok {
			res = aval{k: vConst, c: v}
		} else if sym, off, ok := va.symPointer(st, in); ok {
			res = aval{k: vSym, sym: sym, c: off}
		} else if s, off, ok := va.address(st, in); ok && va.tracked(s) {
			if v, ok := loadValue(st, s, off, in.Size, in.Signed); ok {
				if v.IsImm {
					res = aval{k: vConst, c: v.Imm}
				} else if in.Size == 8 {
					res = st.regs.get(v.Reg)
				}
			}
		}
	case ir.OpStore:
		if s, off, ok := va.address(st, in); ok {
			if va.tracked(s) {
				clobber(st, s, off, in.Size)
				v := in.B
				if b := va.val(st, in.B); b.k == vConst {
					v = ir.Imm(b.c)
				}
				st.mem = append(st.mem, memEnt{slot: s, off: off, size: in.Size, val: v})
			}
		} else {
			va.clobberTainted(st, in.A)
		}
	case ir.OpAtomic:
		if s, off, ok := va.address(st, in); ok {
			clobber(st, s, off, in.Size)
		} else {
			va.clobberTainted(st, in.A)
		}
	}
	if d := in.Dst; d != 0 {
		kept := st.mem[:0]
		for _, e := range st.mem {
			if e.val.IsImm || e.val.Reg != d {
				kept = append(kept, e)
			}
		}
		st.mem = kept
		if res.k != vUnknown {
			st.regs.set(d, res)
		} else {
			st.regs.del(d)
		}
	}
}

func (va *valueAnalysis) clobberTainted(st *vstate, a ir.Operand) {
	if a.IsImm {
		return
	}
	for s := range va.taint[a.Reg] {
		clobber(st, s, 0, 0)
	}
}

func (va *valueAnalysis) evalALU(st *vstate, in *ir.Instr) aval {
	a, b := va.val(st, in.A), va.val(st, in.B)
	switch {
	case a.k == vConst && b.k == vConst:
		if isDivisionALU(in.ALU) && b.c == 0 {
			return aval{}
		}
		return aval{k: vConst, c: ir.EvalALU(in.ALU, in.W32, a.c, b.c)}
	case in.W32:
		return aval{}
	case in.ALU == ir.Add && a.k == vFrame && b.k == vConst:
		return aval{k: vFrame, slot: a.slot, c: a.c + b.c}
	case in.ALU == ir.Add && b.k == vFrame && a.k == vConst:
		return aval{k: vFrame, slot: b.slot, c: a.c + b.c}
	case in.ALU == ir.Sub && a.k == vFrame && b.k == vConst:
		return aval{k: vFrame, slot: a.slot, c: a.c - b.c}
	case in.ALU == ir.Add && a.k == vSym && b.k == vConst:
		return aval{k: vSym, sym: a.sym, c: a.c + b.c}
	case in.ALU == ir.Add && b.k == vSym && a.k == vConst:
		return aval{k: vSym, sym: b.sym, c: a.c + b.c}
	case in.ALU == ir.Sub && a.k == vFrame && b.k == vFrame && a.slot == b.slot:
		return aval{k: vConst, c: a.c - b.c}
	}
	return aval{}
}

// rewrite simplifies every reachable instruction using the fixpoint.
func (va *valueAnalysis) rewrite() {
	for bi, b := range va.f.Blocks {
		if va.in[bi] == nil {
			continue
		}
		st := va.in[bi].clone()
		for _, in := range b.Instrs {
			va.transfer(st, in, true)
		}
	}
}

// simplify rewrites in given the state before it.
func (va *valueAnalysis) simplify(st *vstate, in *ir.Instr) {
	subst := func(o *ir.Operand) {
		if v := va.val(st, *o); !o.IsImm && v.k == vConst {
			*o = ir.Imm(v.c)
		}
	}
	switch in.Op {
	case ir.OpLoad, ir.OpStore, ir.OpAtomic:
		if in.Slot == nil && !in.A.IsImm && in.Core == nil {
			if a := va.val(st, in.A); a.k == vFrame && in.A.Reg != in.Dst {
				in.Slot, in.Off, in.A, in.Space = a.slot, a.c+in.Off, ir.Operand{}, ir.SpaceStack
			}
		}
	}
	switch in.Op {
	case ir.OpLoad:
		if v, ok := va.symLoad(st, in); ok {
			*in = ir.Instr{Op: ir.OpMov, Dst: in.Dst, A: ir.Imm(v), Pos: in.Pos, Note: in.Note}
			return
		}
		if sym, off, ok := va.symPointer(st, in); ok {
			*in = ir.Instr{Op: ir.OpSymAddr, Dst: in.Dst, Sym: sym, Off: off, Pos: in.Pos, Note: in.Note}
			return
		}
		if s, off, ok := va.address(st, in); ok && va.tracked(s) {
			if v, ok := loadValue(st, s, off, in.Size, in.Signed); ok {
				switch {
				case v.IsImm || in.Size == 8:
					*in = ir.Instr{Op: ir.OpMov, Dst: in.Dst, A: v, Pos: in.Pos, Note: in.Note}
				default:
					*in = ir.Instr{Op: ir.OpExt, Dst: in.Dst, A: v, Bits: in.Size * 8, Signed: in.Signed, Pos: in.Pos, Note: in.Note}
				}
				va.simplify(st, in)
				return
			}
		}
	case ir.OpStore:
		narrowStack := in.Size < 8 && (in.Slot != nil || in.Space == ir.SpaceStack)
		if !narrowStack {
			subst(&in.B)
		}
	case ir.OpAtomic:
		subst(&in.B)
		if in.Atomic == ir.AtomicCmpXchg {
			subst(&in.C)
		}
	case ir.OpBranch:
		if taken, ok := va.decide(st, in); ok {
			t := in.Else
			if taken {
				t = in.Then
			}
			*in = ir.Instr{Op: ir.OpJump, Then: t, Pos: in.Pos, Note: in.Note}
			return
		}
		forEachUse(in, subst)
	case ir.OpFrameAddr:
	case ir.OpExt:
		if !in.Signed && in.Bits == 32 && !in.A.IsImm && va.zext.has(in.A.Reg) {
			// Zero-extending what is zero-extended already: a copy.
			*in = ir.Instr{Op: ir.OpMov, Dst: in.Dst, A: in.A, Pos: in.Pos, Note: in.Note}
			return
		}
		forEachUse(in, subst)
		foldInstr(in)
	default:
		if in.Dst != 0 && pure(in) {
			var v aval
			switch in.Op {
			case ir.OpALU:
				v = va.evalALU(st, in)
			case ir.OpMov:
				v = va.val(st, in.A)
			}
			switch v.k {
			case vConst:
				*in = ir.Instr{Op: ir.OpMov, Dst: in.Dst, A: ir.Imm(v.c), Pos: in.Pos, Note: in.Note}
				return
			case vFrame:
				if in.Op == ir.OpALU {
					*in = ir.Instr{Op: ir.OpFrameAddr, Dst: in.Dst, Slot: v.slot, Off: v.c, Pos: in.Pos, Note: in.Note}
					return
				}
			case vSym:
				if in.Op == ir.OpALU && fitsInt32(v.c) && !va.externs[v.sym] {
					*in = ir.Instr{Op: ir.OpSymAddr, Dst: in.Dst, Sym: v.sym, Off: v.c, Pos: in.Pos, Note: in.Note}
					return
				}
			}
		}
		forEachUse(in, subst)
		foldInstr(in)
	}
}
