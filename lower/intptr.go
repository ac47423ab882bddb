package lower

import (
	"modernc.org/cc/v4"
)

// checkIntPointer reports an implicit conversion between an integer and a
// pointer where C requires a cast, as clang 16 and later refuse it
// (-Wint-conversion is an error there): `__u64 *q = addr;` with a long
// addr, `return p;` from a function returning int. A null pointer constant
// becomes a pointer, and any pointer a _Bool. Arguments and assignments
// are not checked: libbpf's BPF_KPROBE and BPF_PROG pass (void *) register
// values to the handler's parameters of any type, and BPF_SEQ_PRINTF
// assigns pointers to a u64 array, with the diagnostic turned off by a
// pragma around the expansion, which bpfcc does not track.
func (fl *fnLowerer) checkIntPointer(e cc.ExpressionNode, to cc.Type, how conversionSite) {
	from := e.Type()
	if from == nil || to == nil || from.Kind() == cc.InvalidKind || to.Kind() == cc.InvalidKind {
		return
	}
	var what string
	switch {
	case to.Kind() == cc.Ptr && cc.IsIntegerType(from) && !nullConstant(e):
		what = "integer to pointer"
	case cc.IsIntegerType(to) && to.Kind() != cc.Bool && pointerLike(from):
		what = "pointer to integer"
	default:
		return
	}
	f, t := typeName(from), typeName(to)
	var where string
	switch how {
	case initializing:
		where = "initializing " + t + " with an expression of type " + f
	case returning:
		where = "returning " + f + " from a function with result type " + t
	case passing:
		where = "passing " + f + " to a parameter of type " + t
	case assigning:
		where = "assigning to " + t + " from " + f
	}
	fl.l.errorf(e, "incompatible %s conversion %s (clang refuses it too; cast if meant)", what, where)
}

// checkIntToPointer reports an integer converted to a pointer without a
// cast where a value is passed or assigned, as clang 16 and later refuse it
// (inspektor-gadget passed a char as memcpy's source: the program read
// through the char's value). The other direction is left alone there:
// libbpf's BPF_KPROBE and BPF_PROG pass (void *) register values to
// handler parameters of integer type under a pragma that silences clang.
func (fl *fnLowerer) checkIntToPointer(e cc.ExpressionNode, to cc.Type, how conversionSite) {
	if from := e.Type(); from != nil && to != nil && to.Kind() == cc.Ptr && cc.IsIntegerType(from) {
		fl.checkIntPointer(e, to, how)
	}
}

// conversionSite is where checkIntPointer's value goes.
type conversionSite int

const (
	initializing conversionSite = iota
	returning
	passing
	assigning
)

// pointerLike reports a type whose values convert as pointers: pointers,
// and arrays and functions, which decay to them.
func pointerLike(t cc.Type) bool {
	switch t.Kind() {
	case cc.Ptr, cc.Array, cc.Function:
		return true
	}
	return false
}

// nullConstant reports whether e is an integer constant expression of
// value 0, which C converts to a null pointer.
func nullConstant(e cc.ExpressionNode) bool {
	switch v := e.Value().(type) {
	case cc.Int64Value:
		return v == 0
	case cc.UInt64Value:
		return v == 0
	}
	return false
}
