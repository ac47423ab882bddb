package codegen

import "github.com/bpfcc/bpfcc/ir"

// forwardLoads reuses the result of an earlier load of the same memory
// (same base register, offset and size) when nothing between them can have
// changed it: no store to memory other than a stack slot, no atomic, no
// call, and neither register redefined. It works along extended basic
// blocks: a block with one predecessor starts with what held at that
// predecessor's end. (Stack slots are propagateValues' work.)
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
		sym    string
		off    int64
		size   int
		signed bool
		space  ir.Space
	}
	preds := predecessors(f)
	seen := map[*ir.Block]bool{}
	type symOff struct {
		sym string
		off int64
	}
	var walk func(b *ir.Block, st map[key]ir.Reg, syms map[ir.Reg]symOff)
	walk = func(b *ir.Block, st map[key]ir.Reg, syms map[ir.Reg]symOff) {
		seen[b] = true
		kill := func(r ir.Reg) {
			delete(syms, r)
			for k, v := range st {
				if k.a == r && k.sym == "" || v == r {
					delete(st, k)
				}
			}
		}
		for _, in := range b.Instrs {
			switch in.Op {
			case ir.OpLoad:
				if in.Slot != nil || in.A.IsImm || in.Volatile || in.Core != nil {
					break
				}
				k := key{in.A.Reg, "", in.Off, in.Size, in.Signed, in.Space}
				if so, ok := syms[in.A.Reg]; ok {
					k.a, k.sym, k.off = 0, so.sym, so.off+in.Off
				}
				if r, ok := st[k]; ok && r != in.Dst {
					*in = ir.Instr{Op: ir.OpMov, Dst: in.Dst, A: ir.R(r), Pos: in.Pos, Note: in.Note}
					kill(in.Dst)
					continue
				}
				kill(in.Dst)
				if in.Dst != in.A.Reg || k.sym != "" {
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
				}
			case ir.OpAtomic, ir.OpCall, ir.OpCallFunc, ir.OpAsm:
				clear(st)
			}
			if in.Dst != 0 {
				kill(in.Dst)
			}
		}
		for _, s := range b.Succs() {
			if seen[s] {
				continue
			}
			next, nextSyms := map[key]ir.Reg{}, map[ir.Reg]symOff{}
			if preds[s] == 1 {
				for k, v := range st {
					next[k] = v
				}
				for r, so := range syms {
					nextSyms[r] = so
				}
			}
			walk(s, next, nextSyms)
		}
	}
	walk(f.Blocks[0], map[key]ir.Reg{}, map[ir.Reg]symOff{})
}
