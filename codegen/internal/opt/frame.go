package opt

import "github.com/bpfcc/bpfcc/ir"

// foldFrameAddrs turns loads, stores and atomics through a register that
// only ever holds a stack object's address into slot-addressed accesses
// (R10-relative after isel); dead-code elimination then drops the address
// computation. This is what keeps "x = *(u32 *)(r10 - 4)" one instruction.
func foldFrameAddrs(f *ir.Func, _ *passCtx) {
	defs := map[ir.Reg]int{}
	frame := map[ir.Reg]*ir.Instr{}
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			if in.Dst != 0 {
				defs[in.Dst]++
				if in.Op == ir.OpFrameAddr {
					frame[in.Dst] = in
				}
			}
		}
	}
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			switch in.Op {
			case ir.OpLoad, ir.OpStore, ir.OpAtomic:
			default:
				continue
			}
			if in.Slot != nil || in.A.IsImm || in.Core != nil {
				continue
			}
			fa, ok := frame[in.A.Reg]
			if !ok || defs[in.A.Reg] != 1 || in.A.Reg == in.Dst {
				continue
			}
			in.Slot, in.Off, in.A = fa.Slot, in.Off+fa.Off, ir.Operand{}
			in.Space = ir.SpaceStack
		}
	}
}
