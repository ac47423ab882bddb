package opt

import "github.com/bpfcc/bpfcc/ir"

// reuseSymAddrs makes a second materialisation of a global's address in a
// block a copy of the first: C's `counter++` loads and stores through two
// address computations, each an ld_imm64 (two instruction slots), where
// one register can serve both. Calls end the reuse: the address would
// have to live in a callee-saved register across them, and rematerialising
// it costs no more than that move.
//
// cse does the same across blocks, and at other offsets, but only for 32
// instructions after an address's last use; this pass keeps the reuse
// within a block unbounded (without it spill_sharing.c grows 753 -> 780
// instructions).
func reuseSymAddrs(f *ir.Func, c *passCtx) {
	type key struct {
		sym string
		off int64
	}
	for _, b := range f.Blocks {
		have := map[key]ir.Reg{}
		for _, in := range b.Instrs {
			switch in.Op {
			case ir.OpCall, ir.OpCallFunc, ir.OpAsm:
				clear(have)
			case ir.OpSymAddr:
				k := key{in.Sym, in.Off}
				if r, ok := have[k]; ok && r != in.Dst && (c == nil || !c.externs[in.Sym]) {
					*in = ir.Instr{Op: ir.OpMov, Dst: in.Dst, A: ir.R(r), Pos: in.Pos, Note: in.Note}
				}
			}
			if in.Dst == 0 {
				continue
			}
			for k, r := range have {
				if r == in.Dst {
					delete(have, k)
				}
			}
			if in.Op == ir.OpSymAddr {
				have[key{in.Sym, in.Off}] = in.Dst
			}
		}
	}
}
