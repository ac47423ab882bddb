package opt

import "github.com/bpfcc/bpfcc/ir"

// resolveConstP answers the __builtin_constant_p calls (ir.ConstPSym)
// whose argument inlining and folding made a constant: 1.
func resolveConstP(f *ir.Func, _ *passCtx) { answerConstP(f, false) }

// finishConstP answers the calls left: not constants, 0, as clang decides
// what optimisation did not fold. It runs before the last value
// propagation, which then folds the branches that test the answer.
func finishConstP(f *ir.Func, _ *passCtx) { answerConstP(f, true) }

func answerConstP(f *ir.Func, final bool) {
	for _, b := range f.Blocks {
		kept := b.Instrs[:0]
		for _, in := range b.Instrs {
			if in.Op == ir.OpCallFunc && in.Sym == ir.ConstPSym {
				isConst := len(in.Args) == 1 && in.Args[0].IsImm
				if !isConst && !final {
					kept = append(kept, in)
					continue
				}
				if in.Dst == 0 {
					continue // the answer is not used
				}
				v := int64(0)
				if isConst {
					v = 1
				}
				in = &ir.Instr{Op: ir.OpMov, Dst: in.Dst, A: ir.Imm(v), Pos: in.Pos}
			}
			kept = append(kept, in)
		}
		b.Instrs = kept
	}
}
