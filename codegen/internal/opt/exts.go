package opt

import (
	"math/bits"

	"github.com/bpfcc/bpfcc/ir"
)

// dropExtensions turns an extension of a register that already fits the
// width into a copy (a sign extension when the value is narrower still:
// a CO-RE offset added to a pointer): `(__u16)(ntohs(x) & 0xfff)` and a u16 member stored
// and read back extend values that a u16 load, a bswap16 or a mask already
// bounded, one instruction each that the verifier walks on every path.
//
// The bound is flow-insensitive: a register's width is the largest any of
// its definitions can produce (a least fixpoint from the definitions, since
// the IR is not in SSA form), in bits of its unsigned 64-bit value.
//
// An extension of a register that only ever holds constants the extension
// leaves as they are goes too, signed or not: `flags = c ? 1 : 0` joins
// two constants and then converts the int to 64 bits.
func dropExtensions(f *ir.Func, _ *passCtx) {
	w := valueWidths(f)
	consts := constDefs(f)
	defs := defsOf(f)
	stored := newStoreUses(f, defs)
	for _, b := range f.Blocks {
		for i, in := range b.Instrs {
			if in.Op != ir.OpExt || in.A.IsImm {
				continue
			}
			if wide := unwrapNarrowSub(in, localDef(b, i, in.A.Reg, defs), w); wide != nil {
				*in = *wide
				continue
			}
			// A value narrower than the extension's width has a clear
			// sign bit there: either extension leaves it as it is.
			keep := w.of(in.A) > in.Bits || in.Signed && w.of(in.A) == in.Bits
			if cs, ok := consts[in.A.Reg]; keep && ok {
				keep = false
				for _, c := range cs {
					if ir.EvalExt(c, in.Bits, in.Signed) != c {
						keep = true
					}
				}
			}
			if keep && len(defs[in.Dst]) == 1 {
				// Only stored, in no more bytes than the extension
				// keeps: the stores drop the bits it sets (falco's
				// (char)family stored as a u8 was shifted up and back).
				if n := stored.bytes(in.Dst); n > 0 && 8*n <= in.Bits {
					keep = false
				}
			}
			if !keep {
				*in = ir.Instr{Op: ir.OpMov, Dst: in.Dst, A: in.A, Pos: in.Pos, Note: in.Note}
			}
		}
	}
}

// storeUses tells, for a register, the widest store its value reaches
// when stores (through single-definition copies) are all it reaches.
type storeUses struct {
	uses map[ir.Reg][]*ir.Instr
	defs map[ir.Reg][]*ir.Instr
	memo map[ir.Reg]int
}

func newStoreUses(f *ir.Func, defs map[ir.Reg][]*ir.Instr) *storeUses {
	s := &storeUses{uses: map[ir.Reg][]*ir.Instr{}, defs: defs, memo: map[ir.Reg]int{}}
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			forEachUse(in, func(o *ir.Operand) { s.uses[o.Reg] = append(s.uses[o.Reg], in) })
		}
	}
	return s
}

// bytes is the widest store of r's value: 0 when nothing reads it, -1
// when something other than a store or a copy does.
func (s *storeUses) bytes(r ir.Reg) int {
	if n, ok := s.memo[r]; ok {
		return n
	}
	s.memo[r] = -1 // a cycle of copies is no store
	n := 0
	for _, u := range s.uses[r] {
		switch {
		case u.Op == ir.OpStore && !u.B.IsImm && u.B.Reg == r && (u.A.IsImm || u.A.Reg != r) && !u.Volatile:
			n = max(n, u.Size)
		case u.Op == ir.OpMov && len(s.defs[u.Dst]) == 1:
			m := s.bytes(u.Dst)
			if m < 0 {
				return -1
			}
			n = max(n, m)
		default:
			return -1
		}
	}
	s.memo[r] = n
	return n
}

// unwrapNarrowSub returns, for a sign extension of a 32-bit x - C whose x
// is in [0, 2^31) and C in [0, 2^31], the 64-bit x - C it equals (the
// 32-bit difference cannot wrap): `p + (elen - 1)` with elen = *nhl << 2
// (loxilb's GTP walk) then adds elen to the pointer and -1 to the accesses'
// offsets, as clang computes it, where a pointer plus an offset that may
// be -1 is refused by the verifier ("min value is negative").
func unwrapNarrowSub(in, d *ir.Instr, w widths) *ir.Instr {
	if !in.Signed || in.Bits != 32 || d == nil {
		return nil
	}
	if d.Op != ir.OpALU || !d.W32 || d.A.IsImm || !d.B.IsImm || w.of(d.A) > 31 {
		return nil
	}
	c := int64(int32(d.B.Imm))
	switch {
	case d.ALU == ir.Sub && (c >= 0 || uint32(d.B.Imm) == 1<<31):
		c = int64(uint32(d.B.Imm))
	case d.ALU == ir.Add && c <= 0:
		c = -c
	default:
		return nil
	}
	return &ir.Instr{Op: ir.OpALU, ALU: ir.Sub, Dst: in.Dst, A: d.A, B: ir.Imm(c), Pos: in.Pos, Note: in.Note}
}

// localDef returns the definition of r that reaches instruction i of
// block b: the last before i in b (the copies of an unrolled loop each
// assign r) or r's only one, when the registers it reads are not assigned
// between it and i (defined once, for one in another block); else nil.
func localDef(b *ir.Block, i int, r ir.Reg, defs map[ir.Reg][]*ir.Instr) *ir.Instr {
	if j := lastDefBefore(b, i, r); j >= 0 {
		d := b.Instrs[j]
		stale := false
		for _, later := range b.Instrs[j+1 : i] {
			forEachUse(d, func(o *ir.Operand) { stale = stale || later.Dst == o.Reg })
		}
		if stale {
			return nil
		}
		return d
	}
	if len(defs[r]) != 1 {
		return nil
	}
	d := defs[r][0]
	once := true
	forEachUse(d, func(o *ir.Operand) { once = once && len(defs[o.Reg]) == 1 })
	if !once {
		return nil
	}
	return d
}

// lastDefBefore returns the index of the last instruction before i in b
// that assigns r, or -1.
func lastDefBefore(b *ir.Block, i int, r ir.Reg) int {
	for j := i - 1; j >= 0; j-- {
		if b.Instrs[j].Dst == r {
			return j
		}
	}
	return -1
}

// constDefs lists, for each register every definition of which is a
// constant, those constants.
func constDefs(f *ir.Func) map[ir.Reg][]int64 {
	m := map[ir.Reg][]int64{}
	other := map[ir.Reg]bool{}
	for _, p := range f.Params {
		other[p] = true
	}
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			switch {
			case in.Dst == 0:
			case in.Op == ir.OpMov && in.A.IsImm:
				if len(m[in.Dst]) < 16 {
					m[in.Dst] = append(m[in.Dst], in.A.Imm)
				} else {
					other[in.Dst] = true
				}
			default:
				other[in.Dst] = true
			}
		}
	}
	for r := range other {
		delete(m, r)
	}
	return m
}

// widths holds each register's width in bits (0..64).
type widths []int

func (w widths) of(o ir.Operand) int {
	if o.IsImm {
		return immWidth(o.Imm)
	}
	if int(o.Reg) < len(w) {
		return w[o.Reg]
	}
	return 64
}

// immWidth is the bits a constant needs, 64 for a negative one.
func immWidth(v int64) int {
	if v < 0 {
		return 64
	}
	return bits.Len64(uint64(v))
}

// valueWidths computes the widths of f's registers.
func valueWidths(f *ir.Func) widths {
	w := make(widths, max(int(f.NextReg), 1))
	for _, p := range f.Params {
		if int(p) < len(w) {
			w[p] = 64
		}
	}
	// A counter in a loop grows by a bit a round: after a few rounds, an
	// arithmetic result that still grows goes to the most its operation
	// can give (copies follow their sources).
	for round, changed := 0, true; changed; round++ {
		changed = false
		for _, b := range f.Blocks {
			for _, in := range b.Instrs {
				if in.Dst == 0 || int(in.Dst) >= len(w) {
					continue
				}
				if n := min(defWidth(w, in), 64); n > w[in.Dst] {
					if round >= 4 && in.Op == ir.OpALU {
						n = 64
						if in.W32 {
							n = 32
						}
					}
					w[in.Dst], changed = n, true
				}
			}
		}
	}
	return w
}

// defWidth bounds the value in defines given the widths w of its operands.
func defWidth(w widths, in *ir.Instr) int {
	a, b := w.of(in.A), w.of(in.B)
	switch in.Op {
	case ir.OpMov:
		return a
	case ir.OpLoad:
		if in.Signed || in.Size >= 8 {
			return 64
		}
		return 8 * in.Size
	case ir.OpExt:
		if in.Signed {
			if a < in.Bits {
				return a
			}
			return 64
		}
		return min(a, in.Bits)
	case ir.OpBswap:
		return in.Bits
	case ir.OpCore:
		// The loader writes a relocation's value into a 32-bit immediate
		// the move sign-extends: field offsets, sizes, shifts, flags and
		// type ids and sizes are non-negative there; an enumerator's
		// value may be anything.
		if in.Core != nil && in.Core.Kind != ir.CoreEnumValue {
			return 31
		}
		return 64
	case ir.OpALU:
		limit := 64
		if in.W32 {
			limit, a, b = 32, min(a, 32), min(b, 32)
		}
		n := limit
		switch in.ALU {
		case ir.And:
			n = min(a, b)
		case ir.Or, ir.Xor:
			n = max(a, b)
		case ir.Add:
			n = max(a, b) + 1
		case ir.Mul:
			n = a + b
		case ir.UDiv:
			n = a
		case ir.UMod:
			// x % 0 is x in BPF: b bounds the result only when it is a
			// constant other than 0.
			n = a
			if in.B.IsImm && in.B.Imm != 0 {
				n = min(a, b)
			}
		case ir.Lsh:
			if in.B.IsImm {
				n = a + int(in.B.Imm)
			}
		case ir.Rsh:
			n = a
			if in.B.IsImm {
				n = max(a-int(in.B.Imm), 0)
			}
		case ir.Arsh:
			if a < limit {
				n = a
				if in.B.IsImm {
					n = max(a-int(in.B.Imm), 0)
				}
			}
		}
		return min(n, limit)
	}
	return 64
}

// decideByWidths turns into jumps the branches that compare a register
// with a constant the register's width (valueWidths) already decides:
// `int r = u16_load; if (r < 0)` (a parser's error check on a protocol
// number) can never be taken. Left in, the verifier must track the
// register precisely at the test, and states that differ only in it
// stop pruning one another (xdp-filter's VLAN loop exits). Reports
// whether it decided one.
func decideByWidths(f *ir.Func) bool {
	w := valueWidths(f)
	changed := false
	for _, b := range f.Blocks {
		t := b.Term()
		if t == nil || t.Op != ir.OpBranch || t.A.IsImm || !t.B.IsImm {
			continue
		}
		if taken, ok := decidedByWidth(t.Cond, t.W32, w.of(t.A), t.B.Imm); ok {
			takeBranch(t, taken)
			changed = true
		}
	}
	return changed
}

// decidedByWidth reports the outcome of `a cond c` for every a in
// [0, 2^width), when it is the same for all of them.
func decidedByWidth(cond ir.Cond, w32 bool, width int, c int64) (taken, ok bool) {
	bits := 64
	if w32 {
		bits = 32
	}
	if width >= bits {
		return false, false // a may be negative, or wrap
	}
	lo, hi := int64(0), int64(1)<<width-1
	switch cond {
	case ir.Eq, ir.Ne:
		// c, as the compare sees it, outside [0, hi]: never equal.
		uc := uint64(c)
		if w32 {
			uc = uint64(uint32(c))
		}
		if uc > uint64(hi) {
			return cond == ir.Ne, true
		}
		return false, false
	case ir.Set:
		return false, c&hi == 0
	}
	// The ordered conditions are monotonic in a on [0, hi], which stays
	// non-negative in the signed view: the ends agree or nothing is known.
	at0, atHi := ir.EvalCond(cond, w32, lo, c), ir.EvalCond(cond, w32, hi, c)
	return at0, at0 == atHi
}
