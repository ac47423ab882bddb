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

// fitsInt32 and fitsInt16 report whether v fits an immediate or offset field.
func fitsInt32(v int64) bool { return v == int64(int32(v)) }
func fitsInt16(v int64) bool { return v == int64(int16(v)) }
