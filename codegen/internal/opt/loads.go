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
	type key struct {
		a      ir.Reg
		slot   *ir.Slot
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
		imms map[key]int64 // slot bytes a constant store wrote
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
	copyOf := map[ir.Reg]ir.Reg{}
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			if in.Op == ir.OpMov && in.Dst != 0 && !in.A.IsImm && in.A.Reg != in.Dst && defs[in.Dst] == 1 && defs[in.A.Reg] == 1 {
				copyOf[in.Dst] = in.A.Reg
			}
		}
	}
	canon := func(r ir.Reg) ir.Reg {
		for i := 0; i < 16; i++ {
			c, ok := copyOf[r]
			if !ok {
				break
			}
			r = c
		}
		return r
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
				if k.a == r && k.sym == "" && k.slot == nil || v == r {
					delete(st, k)
				}
			}
		}
		for _, in := range b.Instrs {
			switch in.Op {
			case ir.OpLoad:
				if in.Volatile || in.Core != nil || in.Slot != nil && in.Slot.Volatile || in.Slot == nil && in.A.IsImm {
					break
				}
				var k key
				if in.Slot != nil {
					// A stack object a helper filled: propagateValues
					// knows nothing of its bytes.
					k = key{slot: in.Slot, off: in.Off, size: in.Size, signed: in.Signed, space: in.Space}
				} else {
					k = key{canon(in.A.Reg), nil, "", in.Off, in.Size, in.Signed, in.Space}
				}
				if so, ok := syms[in.A.Reg]; ok && in.Slot == nil {
					k.a, k.sym, k.off = 0, so.sym, so.off+in.Off
				}
				if r, ok := st[k]; ok && r != in.Dst {
					*in = ir.Instr{Op: ir.OpMov, Dst: in.Dst, A: ir.R(r), Pos: in.Pos, Note: in.Note}
					kill(in.Dst)
					continue
				}
				if v, ok := imms[k]; ok {
					*in = ir.Instr{Op: ir.OpMov, Dst: in.Dst, A: ir.Imm(v), Pos: in.Pos, Note: in.Note}
					kill(in.Dst)
					continue
				}
				kill(in.Dst)
				if in.Dst != in.A.Reg || k.sym != "" || k.slot != nil {
					st[k] = in.Dst
				}
				continue
			case ir.OpSymAddr:
				kill(in.Dst)
				syms[in.Dst] = symOff{in.Sym, in.Off}
				continue
			case ir.OpStore:
				if in.Slot == nil {
					clear(st)
					clear(imms)
					break
				}
				for k := range st {
					if k.slot == in.Slot || k.slot == nil && k.space == ir.SpaceStack {
						delete(st, k)
					}
				}
				for k := range imms {
					if k.slot == in.Slot {
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
			case ir.OpAtomic, ir.OpCall, ir.OpCallFunc, ir.OpAsm:
				clear(st)
				clear(imms)
			}
			if in.Dst != 0 {
				kill(in.Dst)
			}
		}
		out[b] = &state{st, syms, imms}
	}
}
