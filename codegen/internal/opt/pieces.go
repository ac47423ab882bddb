package opt

import "github.com/bpfcc/bpfcc/ir"

// forwardPieces rewrites a value reassembled from the pieces of a register
// just stored in pieces through a pointer (a misaligned member of a packed
// struct: byte stores of v, v >> 8, ...; then byte loads of the same bytes,
// shifted and or-ed together) as the register's extension to the member's
// size, as clang forwards the store before it splits the access. A
// reload loses what the verifier knew of the value: tetragon's
// `msg->common.size = offsetof(...) + bytes; perf_event_output(..., msg,
// msg->common.size)` with a packed msg was "R5 unbounded memory access".
//
// It works within a block: a byte of memory holds byte i of v from its
// store until a store that may overlap it, a call, or a redefinition of
// v or of the pointer.
func forwardPieces(f *ir.Func) {
	for _, b := range f.Blocks {
		forwardPiecesIn(b)
	}
}

// pieceSrc is byte i of register v.
type pieceSrc struct {
	v ir.Reg
	i int64
}

func forwardPiecesIn(b *ir.Block) {
	type addr struct {
		base ir.Reg
		off  int64
	}
	mem := map[addr]pieceSrc{}               // memory byte -> the register byte it holds
	shifted := map[ir.Reg]pieceSrc{}         // r = v >> 8i: r's byte 0 is v's byte i
	parts := map[ir.Reg]map[int64]pieceSrc{} // r's bytes known to be register bytes, by position; the others are zero
	kill := func(r ir.Reg) {
		for a, s := range mem {
			if a.base == r || s.v == r {
				delete(mem, a)
			}
		}
		for d, s := range shifted {
			if d == r || s.v == r {
				delete(shifted, d)
			}
		}
		for d, p := range parts {
			if d == r {
				delete(parts, d)
				continue
			}
			for _, s := range p {
				if s.v == r {
					delete(parts, d)
					break
				}
			}
		}
	}
	// source is what a register operand holds as register bytes from
	// byte 0 up: v itself, or v >> 8i.
	source := func(o ir.Operand) (pieceSrc, bool) {
		if o.IsImm {
			return pieceSrc{}, false
		}
		if s, ok := shifted[o.Reg]; ok {
			return s, true
		}
		return pieceSrc{o.Reg, 0}, true
	}
	for _, in := range b.Instrs {
		var made map[int64]pieceSrc
		var shift *pieceSrc
		switch in.Op {
		case ir.OpStore:
			if in.A.IsImm || in.Slot != nil || in.Volatile || in.Core != nil {
				clear(mem)
				break
			}
			// Bytes another base may reach are forgotten; this base's
			// bytes the store covers take the stored register's.
			for a := range mem {
				if a.base != in.A.Reg || a.off < in.Off+int64(in.Size) && in.Off <= a.off {
					delete(mem, a)
				}
			}
			s, ok := source(in.B)
			if !ok || s.v == in.A.Reg {
				break
			}
			// (A byte past v's eighth is a zero v >> 8i shifted in.)
			for k := int64(0); k < int64(in.Size) && s.i+k < 8; k++ {
				mem[addr{in.A.Reg, in.Off + k}] = pieceSrc{s.v, s.i + k}
			}
		case ir.OpLoad:
			if in.A.IsImm || in.Slot != nil || in.Volatile || in.Core != nil || in.Signed {
				break
			}
			made = map[int64]pieceSrc{}
			for k := int64(0); k < int64(in.Size); k++ {
				s, ok := mem[addr{in.A.Reg, in.Off + k}]
				if !ok {
					made = nil
					break
				}
				made[k] = s
			}
		case ir.OpALU:
			if in.W32 || in.A.IsImm || !in.B.IsImm && in.ALU != ir.Or {
				break
			}
			switch {
			case in.ALU == ir.Rsh && in.B.Imm%8 == 0 && in.B.Imm > 0 && in.B.Imm < 64:
				if s, ok := source(in.A); ok {
					shift = &pieceSrc{s.v, s.i + in.B.Imm/8}
				}
			case in.ALU == ir.Lsh && in.B.Imm%8 == 0 && in.B.Imm > 0 && in.B.Imm < 64:
				if p := parts[in.A.Reg]; p != nil {
					made = map[int64]pieceSrc{}
					for k, s := range p {
						if k+in.B.Imm/8 < 8 {
							made[k+in.B.Imm/8] = s
						}
					}
				}
			case in.ALU == ir.And && (in.B.Imm == 0xff || in.B.Imm == 0xffff):
				if s, ok := source(in.A); ok {
					made = map[int64]pieceSrc{0: s}
					if in.B.Imm == 0xffff && s.i < 7 {
						made[1] = pieceSrc{s.v, s.i + 1}
					}
				}
			case in.ALU == ir.Or && !in.B.IsImm:
				made = disjointUnion(parts[in.A.Reg], parts[in.B.Reg])
			}
		case ir.OpCall, ir.OpCallFunc, ir.OpAtomic, ir.OpAsm:
			clear(mem)
		}
		if in.Dst == 0 {
			continue
		}
		kill(in.Dst)
		if shift != nil && shift.v != in.Dst {
			shifted[in.Dst] = *shift
		}
		if made == nil {
			continue
		}
		parts[in.Dst] = made
		// Bytes 0..n-1 of one register, each in its place: the value
		// is that register extended from n bytes.
		n := int64(len(made))
		if in.Op != ir.OpALU || in.ALU != ir.Or || n != 2 && n != 4 && n != 8 {
			continue
		}
		v := made[0].v
		whole := true
		for k := int64(0); k < n; k++ {
			s, ok := made[k]
			whole = whole && ok && s.v == v && s.i == k
		}
		if !whole || v == in.Dst {
			continue
		}
		if n == 8 {
			*in = ir.Instr{Op: ir.OpMov, Dst: in.Dst, A: ir.R(v), Pos: in.Pos, Note: in.Note}
		} else {
			*in = ir.Instr{Op: ir.OpExt, Dst: in.Dst, A: ir.R(v), Bits: int(8 * n), Pos: in.Pos, Note: in.Note}
		}
	}
}
