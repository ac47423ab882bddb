package opt

import (
	"strings"

	"github.com/cilium/ebpf/btf"

	"github.com/bpfcc/bpfcc/ir"
)

// This file holds the parts of propagateValues that learn facts from
// outside the instructions themselves: the contents of constant globals and
// the outcome of the branch an edge leaves by.

// foldableGlobals returns, by name, the globals loads may be folded from.
func foldableGlobals(gs []*ir.Global) map[string]*ir.Global {
	var m map[string]*ir.Global
	for _, g := range gs {
		if g != nil && foldableGlobal(g) {
			if m == nil {
				m = map[string]*ir.Global{}
			}
			m[g.Name] = g
		}
	}
	return m
}

// neverWritten lists the static variables of m with an initializer that
// no instruction can write: every address taken of one is only loaded
// from. Their initializers are their values for good, as clang's global
// optimisation finds (beyla's static char *hex = "0123...": the pointer
// read from .data was a scalar to the verifier). A volatile one is left
// alone.
func neverWritten(m *ir.Module) []*ir.Global {
	cands := map[string]*ir.Global{}
	for _, g := range m.Globals {
		if g != nil && g.Static && !g.Extern && !g.Const && len(g.Init) == g.Size && g.Size > 0 &&
			strings.HasPrefix(g.Section, ".data") && !volatileBTF(g.BTF) {
			cands[g.Name] = g
		}
	}
	if len(cands) == 0 {
		return nil
	}
	for _, f := range m.Funcs {
		addrOf := map[ir.Reg]string{}
		for _, b := range f.Blocks {
			for _, in := range b.Instrs {
				if in.Op == ir.OpSymAddr && cands[in.Sym] != nil {
					if _, twice := addrOf[in.Dst]; twice {
						delete(cands, in.Sym) // a register defined twice: not followed
					}
					addrOf[in.Dst] = in.Sym
				}
			}
		}
		for _, b := range f.Blocks {
			for _, in := range b.Instrs {
				forEachUse(in, func(o *ir.Operand) {
					if sym, ok := addrOf[o.Reg]; ok && !(in.Op == ir.OpLoad && o == &in.A) {
						delete(cands, sym)
					}
				})
				if in.Op == ir.OpAsm && in.Asm != nil {
					// The variables the code names (beyla's
					// bpf_clamp_umax, anywhere in the file, kept a
					// static pointer from folding).
					for _, ins := range in.Asm.Insns {
						delete(cands, ins.Reference())
					}
					for _, o := range in.Asm.Operands {
						delete(cands, o.Sym)
					}
				}
			}
		}
	}
	var out []*ir.Global
	for _, g := range m.Globals {
		if g != nil && cands[g.Name] == g {
			out = append(out, g)
		}
	}
	return out
}

// volatileBTF reports a volatile-qualified variable type.
func volatileBTF(t btf.Type) bool {
	for t != nil {
		switch q := t.(type) {
		case *btf.Volatile:
			return true
		case *btf.Const:
			t = q.Type
		case *btf.Typedef:
			t = q.Type
		default:
			return false
		}
	}
	return false
}

// foldableGlobal reports whether g's initializer is its value for good: a
// read-only object marked Const by lower, or one of lower's string literals.
func foldableGlobal(g *ir.Global) bool {
	if !strings.HasPrefix(g.Section, ".rodata") || len(g.Init) != g.Size {
		return false
	}
	return g.Const || isStringLiteral(g)
}

// globalValue reads size bytes at off in a foldable global, extended as a
// load with signed asks.
func (va *valueAnalysis) globalValue(sym string, off int64, size int, signed bool) (int64, bool) {
	g := va.consts[sym]
	if g == nil || off < 0 || off+int64(size) > int64(len(g.Init)) {
		return 0, false
	}
	for _, r := range g.Relocs {
		if int64(r.Off) < off+int64(size) && off < int64(r.Off)+8 {
			// A pointer the loader fills in: Init holds no value there
			// (names[1][0] of a const char *const array read 0).
			return 0, false
		}
	}
	var v uint64
	for i := size - 1; i >= 0; i-- {
		v = v<<8 | uint64(g.Init[off+int64(i)])
	}
	return ir.EvalExt(int64(v), size*8, signed), true
}

// zeroExtended computes the registers whose upper 32 bits are zero
// wherever they are defined: every definition is a 32-bit operation, a
// zero extension from at most 32 bits, a narrow unsigned load, a small
// non-negative constant or a copy of another such register. Parameters are
// not. It is a greatest fixpoint, sound because each definition preserves
// the property given that its operands have it (and registers read before
// any write are zeroed at entry).
func zeroExtended(f *ir.Func) regFlags {
	z := make(regFlags, max(int(f.NextReg), 1))
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			if in.Dst != 0 {
				if int(in.Dst) >= len(z) {
					z = append(z, make(regFlags, int(in.Dst)+1-len(z))...)
				}
				z[in.Dst] = true
			}
		}
	}
	for _, p := range f.Params {
		if int(p) < len(z) {
			z[p] = false
		}
	}
	ok := func(in *ir.Instr) bool {
		switch in.Op {
		case ir.OpALU, ir.OpNeg:
			return in.W32
		case ir.OpExt:
			return !in.Signed && in.Bits <= 32
		case ir.OpLoad:
			return !in.Signed && in.Size <= 4
		case ir.OpMov:
			if in.A.IsImm {
				return in.A.Imm >= 0 && in.A.Imm <= 0xffffffff
			}
			return z.has(in.A.Reg)
		}
		return false
	}
	for changed := true; changed; {
		changed = false
		for _, b := range f.Blocks {
			for _, in := range b.Instrs {
				if in.Dst != 0 && z[in.Dst] && !ok(in) {
					z[in.Dst] = false
					changed = true
				}
			}
		}
	}
	return z
}

// regFlags is a set of registers, indexed by register.
type regFlags []bool

func (z regFlags) has(r ir.Reg) bool { return r >= 0 && int(r) < len(z) && z[r] }

// vedge is a control-flow edge with the state control has on it.
type vedge struct {
	to *ir.Block
	st *vstate
}

// edges returns the edges control may leave b by in state st (the state
// after b's last instruction). A decided branch has one; on the edge where
// "r == C" holds, r is known to be C.
func (va *valueAnalysis) edges(b *ir.Block, st *vstate) []vedge {
	t := b.Term()
	if t == nil || t.Op != ir.OpBranch {
		var out []vedge
		for _, s := range b.Succs() {
			out = append(out, vedge{s, st})
		}
		return out
	}
	if taken, ok := va.decide(st, t); ok {
		if taken {
			return []vedge{{t.Then, st}}
		}
		return []vedge{{t.Else, st}}
	}
	return []vedge{{t.Then, va.refine(b, st, t, true)}, {t.Else, va.refine(b, st, t, false)}}
}

// refine returns st with what the branch t's outcome taken tells.
func (va *valueAnalysis) refine(blk *ir.Block, st *vstate, t *ir.Instr, taken bool) *vstate {
	if (t.Cond == ir.Eq) != taken || (t.Cond != ir.Eq && t.Cond != ir.Ne) {
		return st
	}
	a, b := t.A, t.B
	if a.IsImm {
		a, b = b, a
	}
	bv := va.val(st, b)
	if a.IsImm || bv.k != vConst || va.val(st, a).k != vUnknown {
		return st
	}
	c := bv.c
	if t.W32 {
		if !va.zext.has(a.Reg) {
			return st
		}
		c = int64(uint32(c))
	}
	n := va.replay(blk, a.Reg, c)
	if n == nil {
		n = st.clone()
	}
	n.regs.set(a.Reg, aval{k: vConst, c: c})
	return n
}

// replay returns the state at the end of blk (before its terminator) given
// that r holds c there, or nil. It walks back through the copies and
// invertible operations (adding, subtracting or xoring a constant) that
// computed r in blk to the earliest register the value is known for, then
// re-runs the block from that register's definition with it known: so
// "r = i; i++; if r == 5" also knows i == 6.
func (va *valueAnalysis) replay(blk *ir.Block, r ir.Reg, c int64) *vstate {
	if va.in[blk.ID] == nil {
		return nil
	}
	n := len(blk.Instrs) - 1 // the terminator
	at, cur, val := n, r, c
	for i := n - 1; i >= 0; i-- {
		in := blk.Instrs[i]
		if in.Dst != cur {
			continue
		}
		y, v, ok := va.invert(in, val)
		if !ok {
			break
		}
		at, cur, val = i, y, v
	}
	for at > 0 && blk.Instrs[at-1].Dst != cur {
		at-- // cur holds val since its last definition
	}
	st := va.in[blk.ID].clone()
	for _, in := range blk.Instrs[:at] {
		va.transfer(st, in, false)
	}
	if st.regs.get(cur).k != vUnknown {
		return nil
	}
	st.regs.set(cur, aval{k: vConst, c: val})
	for _, in := range blk.Instrs[at:n] {
		va.transfer(st, in, false)
	}
	return st
}

// invert returns the register in reads and the value it held when in's
// result is v, for copies and invertible operations.
func (va *valueAnalysis) invert(in *ir.Instr, v int64) (ir.Reg, int64, bool) {
	switch in.Op {
	case ir.OpMov:
		if !in.A.IsImm && in.A.Reg != in.Dst {
			return in.A.Reg, v, true
		}
	case ir.OpALU:
		if in.A.IsImm || !in.B.IsImm || in.A.Reg == in.Dst || (in.W32 && !va.zext.has(in.A.Reg)) {
			return 0, 0, false
		}
		var x int64
		switch in.ALU {
		case ir.Add:
			x = v - in.B.Imm
		case ir.Sub:
			x = v + in.B.Imm
		case ir.Xor:
			x = v ^ in.B.Imm
		default:
			return 0, 0, false
		}
		if in.W32 {
			x = int64(uint32(x))
		}
		return in.A.Reg, x, true
	case ir.OpExt:
		if !in.Signed && in.Bits == 32 && !in.A.IsImm && va.zext.has(in.A.Reg) && in.A.Reg != in.Dst {
			return in.A.Reg, v, true
		}
	}
	return 0, 0, false
}

// symPointer folds a load of a pointer a foldable global holds to the
// address it points to, as clang folds it: an element of a const array of
// string pointers, or a never-written static pointer to a string
// (beyla's static char *hex = "0123..."), when the target is itself a
// foldable global.
func (va *valueAnalysis) symPointer(st *vstate, in *ir.Instr) (string, int64, bool) {
	if in.Slot != nil || in.Size != 8 || len(va.consts) == 0 {
		return "", 0, false
	}
	a := va.val(st, in.A)
	if a.k != vSym {
		return "", 0, false
	}
	g := va.consts[a.sym]
	if g == nil {
		return "", 0, false
	}
	for _, r := range g.Relocs {
		if int64(r.Off) == a.c+in.Off && va.consts[r.Sym] != nil {
			return r.Sym, r.Addend, true
		}
	}
	return "", 0, false
}

// symLoad folds a load from a foldable global at a known offset.
func (va *valueAnalysis) symLoad(st *vstate, in *ir.Instr) (int64, bool) {
	if in.Slot != nil || len(va.consts) == 0 {
		return 0, false
	}
	a := va.val(st, in.A)
	if a.k != vSym {
		return 0, false
	}
	return va.globalValue(a.sym, a.c+in.Off, in.Size, in.Signed)
}
