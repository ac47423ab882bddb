package opt

import "github.com/bpfcc/bpfcc/ir"

// forwardLoads reuses the result of an earlier load of the same memory
// (same base register, offset and size) when nothing between them can have
// changed it: no store to memory other than a stack slot, no atomic, no
// call, and neither register redefined. A block starts with what held at
// the end of all its predecessors (the reload of skb->data after
// `if (skb->data + N > skb->data_end) ... else ...` joins is the first
// load, whose range the verifier knows). (Stack slots are propagateValues'
// work.)
//
// Besides saving loads this keeps what the verifier learned: in
// `if (e->len > 448) return; read(&e->buf[e->len], ...)` a second load of
// e->len would have lost the bound the comparison proved. A load from a
// global is keyed by the global and offset, not by the register holding
// its address: each use of a global materialises the address anew, and in
// `if (test < N) errs[test]++` the second load of test must be the first.
func forwardLoads(f *ir.Func, _ *passCtx) {
	if len(f.Blocks) == 0 {
		return
	}
	forwardPieces(f)
	type key struct {
		a    ir.Reg
		slot *ir.Slot
		// idx is a stackIndex's expr: an element of a slot no call can
		// write, indexed by a register.
		idx    string
		sym    string
		off    int64
		size   int
		signed bool
		space  ir.Space
	}
	type symOff struct {
		sym string
		off int64
	}
	type state struct {
		st   map[key]ir.Reg
		syms map[ir.Reg]symOff
		imms map[key]int64 // bytes a constant store wrote
	}
	// Blocks in reverse postorder: a block starts with what holds at the
	// end of every predecessor (the facts they agree on); a predecessor
	// not yet visited (a loop's back edge) holds nothing.
	var order []*ir.Block
	seen := map[*ir.Block]bool{}
	var post func(b *ir.Block)
	post = func(b *ir.Block) {
		seen[b] = true
		for _, s := range b.Succs() {
			if !seen[s] {
				post(s)
			}
		}
		order = append(order, b)
	}
	post(f.Blocks[0])
	predsOf := map[*ir.Block][]*ir.Block{}
	for _, b := range f.Blocks {
		for _, s := range b.Succs() {
			predsOf[s] = append(predsOf[s], b)
		}
	}
	// A base register that is a copy, both defined once, is keyed as the
	// register it copies: inlining passes arguments through such copies.
	defs := defCounts(f)
	widths := valueWidths(f)
	taint, escaped := slotTaint(f)
	indexer := newStackIndexer(f, defs)
	indexed := map[string]stackIndex{} // idx key -> the address (off 0)
	// stackKey is the key of an access through a stackIndex address of a
	// slot that does not escape, or ok false.
	stackKey := func(in *ir.Instr) (key, bool) {
		if in.Slot != nil || in.A.IsImm || in.Volatile || in.Core != nil {
			return key{}, false
		}
		x, ok := indexer.of(in.A.Reg)
		if !ok || escaped[x.slot] {
			return key{}, false
		}
		x.off += in.Off
		k := key{slot: x.slot, idx: x.expr, off: x.off, size: in.Size, signed: in.Signed, space: in.Space}
		x.off = 0
		indexed[x.expr] = x
		return k, true
	}
	// at is the address of an indexed key.
	at := func(k key) stackIndex {
		x := indexed[k.idx]
		x.off = k.off
		return x
	}
	// keepIndexed drops st and imms entries except indexed ones whose slot
	// keep allows.
	keepIndexed := func(st map[key]ir.Reg, imms map[key]int64, keep func(*ir.Slot) bool) {
		for k := range st {
			if k.idx == "" || !keep(k.slot) {
				delete(st, k)
			}
		}
		for k := range imms {
			if k.idx == "" || !keep(k.slot) {
				delete(imms, k)
			}
		}
	}
	loaded := map[ir.Reg]bool{} // registers a load defines
	tested := map[ir.Reg]bool{} // registers a branch compares
	constants := constDefs(f)
	zext := zeroExtended(f)
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			if in.Op == ir.OpLoad {
				loaded[in.Dst] = true
			}
			if in.Op == ir.OpBranch {
				for _, o := range []ir.Operand{in.A, in.B} {
					if !o.IsImm {
						tested[o.Reg] = true
					}
				}
			}
		}
	}
	// root is the register an address is a constant offset from, through
	// copies and additions of constants every register of which is
	// defined once: accesses through v = m + 128 and through m are then
	// keyed alike, and a store is seen not to overlap a load at another
	// offset from the same root (tetragon's filter->type, read again
	// after stores to the same map value at other offsets, lost the
	// branch that tested it: "invalid mem access 'scalar'").
	single := map[ir.Reg]*ir.Instr{}
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			if in.Dst != 0 && defs[in.Dst] == 1 {
				single[in.Dst] = in
			}
		}
	}
	root := func(r ir.Reg) (ir.Reg, int64) {
		var off int64
		for i := 0; i < 16; i++ {
			d := single[r]
			switch {
			case d == nil || d.A.IsImm || defs[d.A.Reg] != 1:
				return r, off
			case d.Op == ir.OpMov:
				r = d.A.Reg
			case d.Op == ir.OpALU && d.ALU == ir.Add && !d.W32 && d.B.IsImm:
				off += d.B.Imm
				r = d.A.Reg
			default:
				return r, off
			}
		}
		return r, off
	}
	out := map[*ir.Block]*state{}
	for i := len(order) - 1; i >= 0; i-- {
		b := order[i]
		st, syms, imms := map[key]ir.Reg{}, map[ir.Reg]symOff{}, map[key]int64{}
		if ps := predsOf[b]; b != f.Blocks[0] && len(ps) > 0 {
			first := out[ps[0]]
			if first != nil {
				for k, v := range first.st {
					st[k] = v
				}
				for r, so := range first.syms {
					syms[r] = so
				}
				for k, v := range first.imms {
					imms[k] = v
				}
			}
			for _, p := range ps[1:] {
				o := out[p]
				if o == nil {
					clear(st)
					clear(syms)
					clear(imms)
					break
				}
				for k, v := range st {
					if w, ok := o.st[k]; !ok || w != v {
						delete(st, k)
					}
				}
				for k, v := range imms {
					if w, ok := o.imms[k]; !ok || w != v {
						delete(imms, k)
					}
				}
				for r, so := range syms {
					if x, ok := o.syms[r]; !ok || x != so {
						delete(syms, r)
					}
				}
			}
		}
		kill := func(r ir.Reg) {
			delete(syms, r)
			for k, v := range st {
				if k.a == r && k.sym == "" && k.slot == nil || v == r || k.idx != "" && indexed[k.idx].leaf == r {
					delete(st, k)
				}
			}
			for k := range imms {
				if k.a == r && k.sym == "" && k.slot == nil || k.idx != "" && indexed[k.idx].leaf == r {
					delete(imms, k)
				}
			}
		}
		var stored []key         // entries made by stores through pointers, oldest first
		across := map[key]bool{} // stored entries successors may use
		// narrow are entries whose register may hold more than the bytes
		// stored: a load of them is the register's extension.
		narrow := map[key]bool{}
		for _, in := range b.Instrs {
			switch in.Op {
			case ir.OpLoad:
				if in.Volatile || in.Core != nil || in.Slot != nil && in.Slot.Volatile || in.Slot == nil && in.A.IsImm {
					break
				}
				var k key
				if sk, ok := stackKey(in); ok {
					k = sk
				} else if in.Slot != nil {
					// A stack object a helper filled: propagateValues
					// knows nothing of its bytes.
					k = key{slot: in.Slot, off: in.Off, size: in.Size, signed: in.Signed, space: in.Space}
				} else {
					a, off := root(in.A.Reg)
					k = key{a: a, off: off + in.Off, size: in.Size, signed: in.Signed, space: in.Space}
				}
				if so, ok := syms[in.A.Reg]; ok && in.Slot == nil {
					k.a, k.sym, k.off = 0, so.sym, so.off+in.Off
				}
				if r, ok := st[k]; ok && r != in.Dst {
					if narrow[k] {
						*in = ir.Instr{Op: ir.OpExt, Dst: in.Dst, A: ir.R(r), Bits: 8 * in.Size, Signed: in.Signed, Pos: in.Pos, Note: in.Note}
					} else {
						*in = ir.Instr{Op: ir.OpMov, Dst: in.Dst, A: ir.R(r), Pos: in.Pos, Note: in.Note}
					}
					kill(in.Dst)
					continue
				}
				if v, ok := imms[k]; ok {
					*in = ir.Instr{Op: ir.OpMov, Dst: in.Dst, A: ir.Imm(v), Pos: in.Pos, Note: in.Note}
					kill(in.Dst)
					continue
				}
				kill(in.Dst)
				if (in.Dst != in.A.Reg || k.sym != "" || k.slot != nil) && (k.idx == "" || indexed[k.idx].leaf != in.Dst) {
					st[k] = in.Dst
				}
				continue
			case ir.OpSymAddr:
				kill(in.Dst)
				syms[in.Dst] = symOff{in.Sym, in.Off}
				continue
			case ir.OpStore:
				if sk, ok := stackKey(in); ok {
					// An element of an array only indexed stores reach:
					// it overwrites what it may overlap, and then holds
					// the value stored.
					x := at(sk)
					for k := range st {
						if k.slot == sk.slot && (k.idx == "" || !x.disjoint(in.Size, at(k), k.size)) || k.slot == nil && k.space == ir.SpaceStack {
							delete(st, k)
						}
					}
					for k := range imms {
						if k.slot == sk.slot && (k.idx == "" || !x.disjoint(in.Size, at(k), k.size)) || k.slot == nil && k.space == ir.SpaceStack {
							delete(imms, k)
						}
					}
					unsigned := sk
					unsigned.signed = false
					signed := unsigned
					signed.signed = true
					if in.B.IsImm {
						imms[unsigned] = ir.EvalExt(in.B.Imm, 8*in.Size, false)
						imms[signed] = ir.EvalExt(in.B.Imm, 8*in.Size, true)
					} else if w := widths.of(in.B); w <= 8*in.Size && in.B.Reg != indexed[sk.idx].leaf {
						st[unsigned] = in.B.Reg
						if w < 8*in.Size || in.Size == 8 {
							st[signed] = in.B.Reg
						}
					}
					break
				}
				if in.Slot == nil {
					// Through any other pointer: it may reach only the
					// slots its register may point into.
					var may map[*ir.Slot]bool
					if !in.A.IsImm {
						may = taint[in.A.Reg]
					}
					// What a load through the same root read at other
					// bytes holds still; kept when a branch tests it
					// (what the verifier learned is then kept too), not
					// every value: a memmove's loaded chunks, read back by
					// a checksum, would all stay live and spill.
					var base ir.Reg
					var boff int64
					if !in.A.IsImm {
						base, boff = root(in.A.Reg)
						boff += in.Off
					}
					apart := func(k key) bool {
						return base != 0 && k.idx == "" && k.slot == nil && k.sym == "" && k.a == base &&
							(k.off+int64(k.size) <= boff || boff+int64(in.Size) <= k.off)
					}
					for k, r := range st {
						if k.idx != "" && may[k.slot] || k.idx == "" && !(apart(k) && tested[r]) {
							delete(st, k)
						}
					}
					for k := range imms {
						if k.idx != "" && may[k.slot] || k.idx == "" && !apart(k) {
							delete(imms, k)
						}
					}
					// A load of what was just stored is the value stored,
					// as clang forwards it (HID's `ctx->retval = ...; if
					// (ctx->retval)`: a reload tests again what is known).
					// Only in the block, and from the last few stores: each
					// keeps its register live to the load, and a run of
					// stores read back later (a memmove, then a checksum
					// of the bytes) would need more registers than BPF has.
					// Not a chunk of a copy (a value loaded to be stored):
					// orderMemmoves needs its one use.
					if in.A.IsImm || in.Volatile || in.Core != nil || !in.B.IsImm && loaded[in.B.Reg] {
						break
					}
					k := key{a: base, off: boff, size: in.Size, space: in.Space}
					if so, ok := syms[in.A.Reg]; ok {
						k.a, k.sym, k.off = 0, so.sym, so.off+in.Off
					}
					if in.B.IsImm {
						// A constant: its reload is the constant
						// (tetragon's `*buflen = 4096; buf + *buflen`,
						// where buflen points into a map value).
						imms[k] = ir.EvalExt(in.B.Imm, 8*in.Size, false)
						k.signed = true
						imms[k] = ir.EvalExt(in.B.Imm, 8*in.Size, true)
						break
					}
					// A narrower store's reload is zero-extended where the
					// verifier sees it; the register stored may have upper
					// bits only widths knows to be clear (perf's
					// augmented_raw_syscalls: `size` stored as a u32,
					// tested and added to a pointer). Unless the verifier
					// knows the value on each path: constants.
					// Or a 4-byte store of a register whose upper half the
					// verifier sees to be zero (a 32-bit operation's result,
					// a zero extension: ecapture's e->len = len < 4096 ?
					// len & 4095 : 4096, reloaded as a helper's size, lost
					// its bound).
					// Otherwise, in the block, the reload is the register's
					// extension, which keeps what the verifier knows of
					// it (tetragon's asm masking exe->len in place, then
					// exe->len a helper's size).
					_, consts := constants[in.B.Reg]
					fits := in.Size == 4 && zext.has(in.B.Reg)
					if in.B.Reg != in.A.Reg {
						w := widths.of(in.B)
						ext := w > 8*in.Size || in.Size < 8 && !consts && !fits
						st[k] = in.B.Reg
						narrow[k] = ext
						stored = append(stored, k)
						across[k] = !ext && (fits || consts)
						if w < 8*in.Size || in.Size == 8 || ext {
							k.signed = true
							st[k] = in.B.Reg
							narrow[k] = ext || w == 8*in.Size && in.Size < 8
							stored = append(stored, k)
							across[k] = !narrow[k] && (fits || consts)
						}
						for len(stored) > 2*maxStoresForwarded {
							delete(st, stored[0])
							stored = stored[1:]
						}
					}
					break
				}
				// Through a pointer, a stack slot is written only if
				// the pointer is into the stack or may be into this slot.
				mayReach := func(k key) bool {
					return k.slot == in.Slot || k.slot == nil && k.sym == "" && (k.space == ir.SpaceStack || taint[k.a][in.Slot])
				}
				for k := range st {
					if mayReach(k) {
						delete(st, k)
					}
				}
				for k := range imms {
					if mayReach(k) {
						delete(imms, k)
					}
				}
				// A load of what was just stored is the constant stored, or
				// the register when its value fits the store
				// (propagateValues leaves a slot whose address a helper
				// takes, like the byte bpf_skb_store_bytes reads, to this
				// pass).
				if in.Volatile || in.Core != nil || in.Slot.Volatile {
					break
				}
				unsigned := key{slot: in.Slot, off: in.Off, size: in.Size, space: in.Space}
				signed := unsigned
				signed.signed = true
				if in.B.IsImm {
					imms[unsigned] = ir.EvalExt(in.B.Imm, 8*in.Size, false)
					imms[signed] = ir.EvalExt(in.B.Imm, 8*in.Size, true)
					break
				}
				if w := widths.of(in.B); w <= 8*in.Size {
					st[unsigned] = in.B.Reg
					if w < 8*in.Size || in.Size == 8 {
						st[signed] = in.B.Reg
					}
				}
			case ir.OpCall, ir.OpCallFunc:
				// A call cannot reach a slot whose address never escapes.
				keepIndexed(st, imms, func(*ir.Slot) bool { return true })
			case ir.OpAtomic, ir.OpAsm:
				// (asm may address the stack through r10.)
				clear(st)
				clear(imms)
			}
			if in.Dst != 0 {
				kill(in.Dst)
			}
		}
		// The last stores of a value the verifier sees to fit are known
		// in the blocks after too (perf's arg.size, stored, tested and
		// added to a pointer in the next block: a reload there would have
		// lost the bound the test proved).
		for _, k := range stored {
			if !across[k] {
				delete(st, k)
			}
		}
		out[b] = &state{st, syms, imms}
	}
}

// maxStoresForwarded bounds the stores through pointers whose values
// forwardLoads keeps for later loads of the block.
const maxStoresForwarded = 4
