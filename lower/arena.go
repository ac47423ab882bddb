package lower

import "modernc.org/cc/v4"

// checkArenaDeref rejects a dereference of a pointer into address space 1,
// a BPF arena (`__arena`, scx's and the selftests' arena lists). clang
// casts such a pointer to the kernel's view of the arena before each
// access (addr_space_cast) and places `__arena` variables in the arena's
// own section; bpfcc does neither, so the access would silently read the
// wrong memory. Declaring such pointers stays allowed (headers do), and
// __BPF_FEATURE_ADDR_SPACE_CAST stays undefined, so code written for
// compilers without arenas compiles as it does there.
func (fl *fnLowerer) checkArenaDeref(base cc.ExpressionNode) {
	if fl.layoutOnly > 0 || fl.l.arenaReported {
		return
	}
	elem := elemType(base.Type())
	if elem == nil || elem.Attributes() == nil {
		return
	}
	for _, v := range elem.Attributes().AttrValue("address_space") {
		var as int64
		switch v := v.(type) {
		case cc.Int64Value:
			as = int64(v)
		case cc.UInt64Value:
			as = int64(v)
		}
		if as != 0 {
			fl.l.arenaReported = true
			fl.l.errorf(base, "dereferencing a pointer into address_space(%d) (a BPF arena): bpfcc does not support arenas (clang compiles the access with addr_space_cast)", as)
			return
		}
	}
}
