package opt

import "github.com/bpfcc/bpfcc/ir"

// commutative reports whether a op b == b op a.
func commutative(op ir.ALU) bool {
	switch op {
	case ir.Add, ir.Mul, ir.Or, ir.And, ir.Xor:
		return true
	}
	return false
}

// isDivisionALU reports the operations BPF defines at a zero divisor
// (the quotient 0, the remainder the dividend) but folding must not.
func isDivisionALU(op ir.ALU) bool {
	return op == ir.UDiv || op == ir.UMod || op == ir.SDiv || op == ir.SMod
}

// fitsInt32 and fitsInt16 report whether v fits an immediate or offset field.
func fitsInt32(v int64) bool { return v == int64(int32(v)) }
func fitsInt16(v int64) bool { return v == int64(int16(v)) }
