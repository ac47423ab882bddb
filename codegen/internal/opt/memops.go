package opt

import "github.com/bpfcc/bpfcc/ir"

// expandMemOps expands the memcpy and memset calls whose size lower could
// not read (ir.MemcpySym, ir.MemsetSym) once inlining and propagation
// made it a constant: a helper `static inline void cp(void *d, const void
// *s, unsigned long n) { __builtin_memcpy(d, s, n); }` called with
// sizeof(x) (qemu's rss.bpf.c). The copy becomes loads and stores as wide
// as the alignment allows, as lower emits a memcpy of a constant size.
func expandMemOps(f *ir.Func, _ *passCtx) { expandMemOpsIn(f, false) }

// finishMemOps expands what it can and turns each call left into a trap
// carrying its diagnostic: an error if optimisation leaves it reachable.
func finishMemOps(f *ir.Func, _ *passCtx) { expandMemOpsIn(f, true) }

func expandMemOpsIn(f *ir.Func, last bool) {
	var defs map[ir.Reg][]*ir.Instr // built at the first memory operation
	for _, b := range f.Blocks {
		var out []*ir.Instr
		for _, in := range b.Instrs {
			if in.Op != ir.OpCallFunc || in.Sym != ir.MemcpySym && in.Sym != ir.MemsetSym {
				out = append(out, in)
				continue
			}
			if defs == nil {
				defs = defsOf(f)
			}
			size := throughCopies(f, defs, in.Args[2])
			n, ok := size.Imm, size.IsImm
			if ok {
				// Inlining may have shown the addresses: stack objects
				// whose alignment the helper's void * hid.
				al := frameAlign(f, defs, in.Args[0])
				if in.Sym == ir.MemcpySym {
					al = min(al, frameAlign(f, defs, in.Args[1]))
				}
				in.Size = max(in.Size, al)
			}
			switch {
			case ok && n >= 0 && n <= 512 && (in.Sym == ir.MemsetSym || !in.Args[1].IsImm):
				out = append(out, memOpInstrs(f, in, n)...)
			case last:
				out = append(out, &ir.Instr{Op: ir.OpCallFunc, Sym: ir.TrapSym, Note: in.Note, Pos: in.Pos})
			default:
				out = append(out, in)
			}
		}
		b.Instrs = out
	}
}

// throughCopies follows o back through registers whose one definition
// copies another (as inlining binds parameters) to a constant or the
// register that computes the value.
func throughCopies(f *ir.Func, defs map[ir.Reg][]*ir.Instr, o ir.Operand) ir.Operand {
	for depth := 0; depth < 8 && !o.IsImm && len(defs[o.Reg]) == 1 && defs[o.Reg][0].Op == ir.OpMov && !isParam(f, o.Reg); depth++ {
		o = defs[o.Reg][0].A
	}
	return o
}

// frameAlign is the alignment of the address o holds when it comes from
// taking a stack object's address (1 otherwise).
func frameAlign(f *ir.Func, defs map[ir.Reg][]*ir.Instr, o ir.Operand) int {
	o = throughCopies(f, defs, o)
	if o.IsImm || len(defs[o.Reg]) != 1 {
		return 1
	}
	d := defs[o.Reg][0]
	if d.Op != ir.OpFrameAddr || d.Slot == nil {
		return 1
	}
	al := max(d.Slot.Align, 1)
	if d.Off != 0 {
		al = min(al, int(d.Off&-d.Off))
	}
	return min(al, 8)
}

func isParam(f *ir.Func, r ir.Reg) bool {
	for _, p := range f.Params {
		if p == r {
			return true
		}
	}
	return false
}

// memOpInstrs are the loads and stores of the memcpy or memset in of n
// bytes.
func memOpInstrs(f *ir.Func, in *ir.Instr, n int64) []*ir.Instr {
	dst, pos := in.Args[0], in.Pos
	var out []*ir.Instr
	var pattern ir.Operand // memset: the byte in every byte of a register
	if in.Sym == ir.MemsetSym && n > 0 {
		c := in.Args[1]
		if c.IsImm {
			pattern = ir.Imm(int64(uint64(uint8(c.Imm)) * 0x0101010101010101))
			if pattern.Imm != 0 {
				r := f.NewReg()
				out = append(out, &ir.Instr{Op: ir.OpMov, Dst: r, A: pattern, Pos: pos})
				pattern = ir.R(r)
			}
		} else {
			byteReg, ones, r := f.NewReg(), f.NewReg(), f.NewReg()
			out = append(out,
				&ir.Instr{Op: ir.OpALU, ALU: ir.And, Dst: byteReg, A: c, B: ir.Imm(0xff), Pos: pos},
				&ir.Instr{Op: ir.OpMov, Dst: ones, A: ir.Imm(0x0101010101010101), Pos: pos},
				&ir.Instr{Op: ir.OpALU, ALU: ir.Mul, Dst: r, A: ir.R(byteReg), B: ir.R(ones), Pos: pos})
			pattern = ir.R(r)
		}
	}
	for off := int64(0); off < n; {
		w := memChunk(n-off, in.Size)
		if in.Sym == ir.MemsetSym {
			out = append(out, &ir.Instr{Op: ir.OpStore, A: dst, B: pattern, Off: off, Size: int(w), Pos: pos})
		} else {
			r := f.NewReg()
			out = append(out,
				&ir.Instr{Op: ir.OpLoad, Dst: r, A: in.Args[1], Off: off, Size: int(w), Pos: pos},
				&ir.Instr{Op: ir.OpStore, A: dst, B: ir.R(r), Off: off, Size: int(w), Pos: pos})
		}
		off += w
	}
	return out
}

// memChunk is the widest access (1, 2, 4 or 8 bytes) that fits left bytes
// at alignment al.
func memChunk(left int64, al int) int64 {
	w := int64(8)
	for w > 1 && (w > left || w > int64(al)) {
		w /= 2
	}
	return w
}
