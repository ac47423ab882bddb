package bpfasm

import "github.com/cilium/ebpf/asm"

// Writes lists, in register order, the registers insns may change: what
// a caller must not keep values in across them.
func Writes(insns asm.Instructions) []asm.Register {
	var set [asm.R10]bool
	mark := func(r asm.Register) {
		if r < asm.R10 {
			set[r] = true
		}
	}
	callClobbers := func() {
		for r := asm.R0; r <= asm.R5; r++ {
			set[r] = true
		}
	}
	for _, ins := range insns {
		op := ins.OpCode
		switch cls := op.Class(); {
		case cls.IsALU(), cls == asm.LdXClass:
			mark(ins.Dst)
		case cls == asm.LdClass && (op.Mode() == asm.AbsMode || op.Mode() == asm.IndMode):
			// Legacy packet loads return in r0 and may clobber r1-r5.
			callClobbers()
		case cls == asm.LdClass:
			mark(ins.Dst)
		case cls == asm.StXClass && op.Mode() == asm.AtomicMode:
			switch op.AtomicOp() {
			case asm.CmpXchg:
				mark(asm.R0)
			case asm.FetchAdd, asm.FetchAnd, asm.FetchOr, asm.FetchXor, asm.Xchg:
				mark(ins.Src)
			}
		case cls.IsJump() && op.JumpOp() == asm.Call:
			callClobbers()
		}
	}
	var out []asm.Register
	for r, w := range set {
		if w {
			out = append(out, asm.Register(r))
		}
	}
	return out
}
