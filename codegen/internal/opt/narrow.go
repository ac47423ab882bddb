package opt

import "github.com/bpfcc/bpfcc/ir"

// unsignLoads turns sign-extending narrow loads whose values are only
// tested for equality into zero-extending ones. Below -mcpu=v4 a signed
// load is a load and two shifts; C's `a[i] != b[i]` on chars compares two
// of them (and `!a[i]` one with 0), where comparing the bytes as they are
// is the same test: x == y holds for the N-bit values exactly when it
// holds for their sign extensions, and for their zero extensions.
//
// A register qualifies when every definition is a signed load of N bytes or
// a copy of a qualifying register of the same width, and every use is an
// eq/ne branch against a qualifying register of that width or a constant
// that is the sign extension of an N-bit value (rewritten as its zero
// extension), a zero extension from width N (`(unsigned char)c`), a sign
// extension from at most width N, a store
// of at most N bytes, or a copy into a qualifying register. Registers are dropped
// until what remains qualifies (a greatest fixpoint).
func unsignLoads(f *ir.Func, _ *passCtx) {
	n := int(max(f.NextReg, 1))
	width := make([]int, n) // bytes; 0 not a candidate, -1 dropped
	for _, p := range f.Params {
		if int(p) < n {
			width[p] = -1
		}
	}
	setWidth := func(r ir.Reg, w int) {
		switch {
		case width[r] == 0:
			width[r] = w
		case width[r] != w:
			width[r] = -1
		}
	}
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			if in.Dst == 0 || int(in.Dst) >= n {
				continue
			}
			if in.Op == ir.OpLoad && in.Signed && in.Size < 8 {
				setWidth(in.Dst, in.Size)
			} else if in.Op != ir.OpMov || in.A.IsImm {
				width[in.Dst] = -1
			}
		}
	}
	ok := func(r ir.Reg) bool { return int(r) < n && width[r] > 0 }
	// Copies take their source's width; a copy of anything else drops.
	drop := func(r ir.Reg) bool {
		if ok(r) {
			width[r] = -1
			return true
		}
		return false
	}
	for changed := true; changed; {
		changed = false
		for _, b := range f.Blocks {
			for _, in := range b.Instrs {
				if in.Op == ir.OpMov && !in.A.IsImm && int(in.Dst) < n && in.Dst != 0 {
					switch {
					case ok(in.A.Reg) && (width[in.Dst] == 0 || width[in.Dst] == width[in.A.Reg]):
						if width[in.Dst] == 0 {
							width[in.Dst] = width[in.A.Reg]
							changed = true
						}
						continue
					case width[in.Dst] != -1:
						width[in.Dst] = -1
						changed = true
					}
				}
				if in.Op == ir.OpMov && !in.A.IsImm && ok(in.A.Reg) && ok(in.Dst) {
					continue
				}
				if in.Op == ir.OpBranch && (in.Cond == ir.Eq || in.Cond == ir.Ne) && eqOperandsOK(in, ok, width) {
					continue
				}
				if zextOfWidth(in, ok, width) {
					continue
				}
				if in.Op == ir.OpExt && in.Signed && !in.A.IsImm && ok(in.A.Reg) && in.Bits <= width[in.A.Reg]*8 {
					// A sign extension reads only the low bytes: its
					// result is the same from either load (a byte
					// stored and forwarded to its signed reload).
					continue
				}
				if in.Op == ir.OpStore && !in.B.IsImm && ok(in.B.Reg) && in.Size <= width[in.B.Reg] {
					// A store as narrow as the load writes its bytes
					// whatever the extension (a char array copied byte
					// by byte).
					if in.Slot == nil && !in.A.IsImm && drop(in.A.Reg) {
						changed = true
					}
					continue
				}
				forEachUse(in, func(o *ir.Operand) {
					if drop(o.Reg) {
						changed = true
					}
				})
			}
		}
	}
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			switch {
			case in.Op == ir.OpLoad && in.Signed && ok(in.Dst):
				in.Signed = false
			case zextOfWidth(in, ok, width):
				*in = ir.Instr{Op: ir.OpMov, Dst: in.Dst, A: in.A, Pos: in.Pos, Note: in.Note}
			case in.Op == ir.OpBranch && (in.Cond == ir.Eq || in.Cond == ir.Ne):
				for _, p := range [2][2]*ir.Operand{{&in.A, &in.B}, {&in.B, &in.A}} {
					if !p[0].IsImm && ok(p[0].Reg) && p[1].IsImm {
						w := width[p[0].Reg] * 8
						p[1].Imm &= 1<<w - 1
					}
				}
			}
		}
	}
}

// zextOfWidth reports whether in zero-extends a qualifying register from
// its own width, as C's `(unsigned char)s[i]` does with a char: the
// zero-extending load already yields that value, so the extension becomes
// a copy.
func zextOfWidth(in *ir.Instr, ok func(ir.Reg) bool, width []int) bool {
	return in.Op == ir.OpExt && !in.Signed && !in.A.IsImm && ok(in.A.Reg) && in.Bits == width[in.A.Reg]*8
}

// eqOperandsOK reports whether an eq/ne branch compares only qualifying
// registers of one width, or one of them with a constant of that width.
func eqOperandsOK(in *ir.Instr, ok func(ir.Reg) bool, width []int) bool {
	a, b := in.A, in.B
	if a.IsImm {
		a, b = b, a
	}
	if a.IsImm || !ok(a.Reg) {
		return false
	}
	w := width[a.Reg]
	if b.IsImm {
		return b.Imm == ir.EvalExt(b.Imm, w*8, true)
	}
	return ok(b.Reg) && width[b.Reg] == w
}
