package lower

import (
	"github.com/cilium/ebpf/btf"
	"strconv"
	"strings"

	"modernc.org/cc/v4"

	"github.com/bpfcc/bpfcc/ir"
)

// CO-RE (compile once, run everywhere): member accesses on records marked
// preserve_access_index (vmlinux.h's types), or inside
// __builtin_preserve_access_index, compute their offsets through
// relocations that the loader (libbpf, cilium/ebpf) rewrites for the
// running kernel's BTF, as clang's BPF target does.

// coreAccess is a CO-RE access chain being built: the lvalue's base register
// points at element 0 of root, path holds the access-string indices so far
// (array index on the root pointer, then member indices in BTF order and
// array indices) and the lvalue's off is the same access's local offset.
type coreAccess struct {
	root cc.Type
	path []int
	// baseOff is where the root object starts in a stack slot (chains on
	// local copies of kernel records); 0 when a pointer register is the
	// base.
	baseOff int64
}

// coreRecord reports whether member accesses on t get relocations.
func (fl *fnLowerer) coreRecord(t cc.Type) bool {
	if t == nil || (t.Kind() != cc.Struct && t.Kind() != cc.Union) {
		return false
	}
	return fl.preserve > 0 || fl.l.u.PreservesAccessIndex(t)
}

// startCore starts a chain at the object base points at, the element idx
// of an array of root (0 for *p and p->f).
//
// A chain needs a named root: libbpf and cilium/ebpf find the kernel's
// type by the root's name and refuse an anonymous one. An anonymous record
// named by a typedef (vmlinux.h's siphash_key_t) is relocated through the
// typedef, as clang does (see btfConv.coreRoot); one without a name gets
// plain offsets. Anonymous records inside a named root stay part of its
// chain.
func (fl *fnLowerer) startCore(root cc.Type, idx int64) *coreAccess {
	if !fl.coreRecord(root) || recordName(root) == "" && typedefName(root) == "" {
		return nil
	}
	return &coreAccess{root: root, path: []int{int(idx)}}
}

// extend returns the chain with more indices appended (nil stays nil).
func (c *coreAccess) extend(idx ...int) *coreAccess {
	if c == nil {
		return nil
	}
	path := make([]int, 0, len(c.path)+len(idx))
	path = append(append(path, c.path...), idx...)
	return &coreAccess{root: c.root, path: path, baseOff: c.baseOff}
}

// relocated reports whether the chain needs a relocation: "0" (the root
// object itself) is at offset 0 on every kernel.
func (c *coreAccess) relocated() bool {
	return c != nil && (len(c.path) > 1 || c.path[0] != 0)
}

func (c *coreAccess) access() string {
	s := make([]string, len(c.path))
	for i, v := range c.path {
		s[i] = strconv.Itoa(v)
	}
	return strings.Join(s, ":")
}

// memberPath returns the access-string indices that reach field f from the
// record it was selected in: the indices of the anonymous members it sits
// in, outermost first, then its own.
func memberPath(f *cc.Field) []int {
	var path []int
	for g := f; g != nil; g = g.ParentField() {
		path = append(path, btfMemberIndex(g))
		if p := g.ParentField(); p == nil || p.Name() != "" {
			break
		}
	}
	for l, r := 0, len(path)-1; l < r; l, r = l+1, r-1 {
		path[l], path[r] = path[r], path[l]
	}
	return path
}

// btfMemberIndex is f's index among the members btfConv.record emits for
// its record: cc's declaration index less the unnamed bit-fields before it,
// which BTF leaves out as clang does.
func btfMemberIndex(f *cc.Field) int {
	r, ok := f.ParentType().(interface{ FieldByIndex(int) *cc.Field })
	if !ok {
		return f.Index()
	}
	n := 0
	for i := 0; i < f.Index(); i++ {
		if g := r.FieldByIndex(i); btfMember(g) {
			n++
		}
	}
	return n
}

// btfMember reports whether a record member appears in BTF.
func btfMember(f *cc.Field) bool {
	return f != nil && !(f.IsBitfield() && f.Name() == "")
}

// coreValue emits Dst = the relocation kind of chain c (or of type t when c
// is nil) whose value for bpfcc's own types is local.
func (fl *fnLowerer) coreValue(kind ir.CoreKind, root cc.Type, access string, local int64) ir.Reg {
	r := fl.tmp()
	fl.emit(&ir.Instr{Op: ir.OpCore, Dst: r, Imm: local, Core: &ir.CoreReloc{Kind: kind, Type: fl.l.btf.coreRoot(root), Access: access}})
	return r
}

// coreAddr materialises the address of a relocated chain: base plus the
// field's byte offset on the running kernel. (A single scalar load or
// store carries the relocation on its offset instead: scalarAccess.)
func (fl *fnLowerer) coreAddr(lv lvalue) ir.Reg {
	base, local := fl.coreBase(lv)
	off := fl.coreValue(ir.CoreFieldByteOffset, lv.core.root, lv.core.access(), local)
	r := fl.tmp()
	fl.emit(&ir.Instr{Op: ir.OpALU, ALU: ir.Add, Dst: r, A: ir.R(base), B: ir.R(off)})
	return r
}

// coreBase returns the register that points at a relocated chain's root
// object and the chain's local offset from it: the pointer itself, or the
// address of the root inside a stack slot (a local copy of a kernel
// record, filled by bpf_core_read, has the kernel's layout).
func (fl *fnLowerer) coreBase(lv lvalue) (ir.Reg, int64) {
	if lv.slot == nil {
		return lv.base, lv.off
	}
	r := fl.tmp()
	fl.emit(&ir.Instr{Op: ir.OpFrameAddr, Dst: r, Slot: lv.slot, Off: lv.core.baseOff})
	return r, lv.off - lv.core.baseOff
}

// BPF_FIELD_* and BPF_TYPE_* / BPF_ENUMVAL_* as bpf_core_read.h numbers
// them for __builtin_preserve_{field,type,enum}_info.
var (
	fieldInfoKinds = []ir.CoreKind{ir.CoreFieldByteOffset, ir.CoreFieldByteSize, ir.CoreFieldExists,
		ir.CoreFieldSigned, ir.CoreFieldLShiftU64, ir.CoreFieldRShiftU64}
	typeInfoKinds = []ir.CoreKind{ir.CoreTypeExists, ir.CoreTypeSize, ir.CoreTypeMatches}
	enumInfoKinds = []ir.CoreKind{ir.CoreEnumValueExists, ir.CoreEnumValue}
)

// coreKindArg reads a builtin's constant kind argument.
func (fl *fnLowerer) coreKindArg(x *cc.PostfixExpression, name string, arg cc.ExpressionNode, kinds []ir.CoreKind) (ir.CoreKind, bool) {
	v, ok := constValue(arg)
	if !ok || v < 0 || v >= int64(len(kinds)) {
		fl.l.errorf(arg, "%s: the kind must be a constant from 0 to %d", name, len(kinds)-1)
		return 0, false
	}
	return kinds[v], true
}

// preserveFieldInfo lowers __builtin_preserve_field_info(FIELD, KIND).
func (fl *fnLowerer) preserveFieldInfo(x *cc.PostfixExpression, args []cc.ExpressionNode) value {
	const name = "__builtin_preserve_field_info"
	t := x.Type()
	kind, ok := fl.coreKindArg(x, name, args[1], fieldInfoKinds)
	if !ok {
		return value{op: ir.Imm(0), t: t}
	}
	fl.preserve++
	lv := fl.lvalueOf(args[0])
	fl.preserve--
	if lv.core == nil || lv.base == 0 && lv.slot == nil {
		// A member of a local object (`bpf_core_field_exists(to.cap)`,
		// tracee's capabilities.h) relocates as clang relocates it: the
		// field's information does not depend on where the object is.
		fl.l.errorf(args[0], "%s needs a member access (p->field, s.field or ((T *)0)->field)", name)
		return value{op: ir.Imm(0), t: t}
	}
	local := fieldInfo(kind, lv)
	return value{op: ir.R(fl.coreValue(kind, lv.core.root, lv.core.access(), local)), t: t}
}

// localFieldInfo lowers bpfcc's own __builtin_bpfcc_member_offset(p->m)
// and __builtin_bpfcc_field_info(p->m, KIND): the layout of a member of a
// type that is not the kernel's (<bpfcc/read.h> reads a traced program's
// memory), a constant with no relocation. A bit-field has no byte offset of
// its own: member_offset refuses it, field_info describes it as
// __builtin_preserve_field_info would.
func (fl *fnLowerer) localFieldInfo(x *cc.PostfixExpression, name string, args []cc.ExpressionNode) value {
	t := x.Type()
	kind := ir.CoreFieldByteOffset
	if name == "__builtin_bpfcc_field_info" {
		var ok bool
		if kind, ok = fl.coreKindArg(x, name, args[1], fieldInfoKinds); !ok {
			return value{op: ir.Imm(0), t: t}
		}
	}
	fl.layoutOnly++
	lv := fl.lvalueOf(args[0])
	fl.layoutOnly--
	if lv.base == 0 || lv.reg != nil {
		fl.l.errorf(args[0], "%s needs a member access through a pointer (p->member)", name)
		return value{op: ir.Imm(0), t: t}
	}
	if f := lv.field; name == "__builtin_bpfcc_member_offset" && f != nil && f.IsBitfield() {
		fl.l.errorf(args[0], "%s is a bit-field, which has no address: read it with BPFCC_READ_BITFIELD", f.Name())
		return value{op: ir.Imm(0), t: t}
	}
	return value{op: ir.Imm(fieldInfo(kind, lv)), t: t}
}

// fieldInfo computes a field relocation's value for the local types, the
// way libbpf computes it for the target's (bpf_core_calc_field_relo): a
// bit-field is described by the smallest naturally aligned load of at least
// its declared type's size that covers it.
func fieldInfo(kind ir.CoreKind, lv lvalue) int64 {
	size := typeSize(lv.t)
	byteOff := lv.off
	bitOff, bitSize := lv.off*8, size*8
	if f := lv.field; f != nil && f.IsBitfield() {
		bitOff += int64(f.OffsetBits())
		bitSize = f.ValueBits()
		size = max(typeSize(f.Type()), 1)
		byteOff = bitOff / 8 / size * size
		for bitOff+bitSize-byteOff*8 > size*8 && size < 8 {
			size *= 2
			byteOff = bitOff / 8 / size * size
		}
	}
	switch kind {
	case ir.CoreFieldByteOffset:
		return byteOff
	case ir.CoreFieldByteSize:
		return size
	case ir.CoreFieldExists:
		return 1
	case ir.CoreFieldSigned:
		if isSigned(lv.t) {
			return 1
		}
		return 0
	case ir.CoreFieldLShiftU64:
		return 64 - (bitOff + bitSize - byteOff*8)
	case ir.CoreFieldRShiftU64:
		return 64 - bitSize
	}
	return 0
}

// preserveTypeInfo lowers __builtin_preserve_type_info(*(T *)0, KIND) and
// __builtin_btf_type_id(*(T *)0, FLAG).
func (fl *fnLowerer) preserveTypeInfo(x *cc.PostfixExpression, name string, args []cc.ExpressionNode) value {
	t := x.Type()
	var kind ir.CoreKind
	var ok bool
	if name == "__builtin_btf_type_id" {
		kind, ok = fl.coreKindArg(x, name, args[1], []ir.CoreKind{ir.CoreTypeIDLocal, ir.CoreTypeIDTarget})
	} else {
		kind, ok = fl.coreKindArg(x, name, args[1], typeInfoKinds)
	}
	if !ok {
		return value{op: ir.Imm(0), t: t}
	}
	typ := fl.objType(args[0])
	local := int64(1)
	switch kind {
	case ir.CoreTypeSize:
		local = typeSize(typ)
	case ir.CoreTypeIDLocal, ir.CoreTypeIDTarget:
		local = 0 // the loader fills in the id
	}
	r := fl.tmp()
	fl.emit(&ir.Instr{Op: ir.OpCore, Dst: r, Imm: local, Core: &ir.CoreReloc{Kind: kind, Type: fl.l.btf.typ(typ), Access: "0"}})
	return value{op: ir.R(r), t: t}
}

// preserveEnumValue lowers __builtin_preserve_enum_value(*(E *)NAME, KIND):
// the relocation names the enumerator by its index in enum E.
func (fl *fnLowerer) preserveEnumValue(x *cc.PostfixExpression, args []cc.ExpressionNode) value {
	const name = "__builtin_preserve_enum_value"
	t := x.Type()
	kind, ok := fl.coreKindArg(x, name, args[1], enumInfoKinds)
	if !ok {
		return value{op: ir.Imm(0), t: t}
	}
	et, _ := fl.objType(args[0]).(*cc.EnumType)
	if et == nil {
		fl.l.errorf(args[0], "%s needs *(enum E *)ENUMERATOR as its first argument", name)
		return value{op: ir.Imm(0), t: t}
	}
	ident := enumeratorName(args[0])
	val, hasVal := constValue(derefOperand(args[0]))
	for i, en := range et.Enumerators() {
		v := enumeratorValue(en)
		if (ident != "" && en.Token.SrcStr() == ident) || (ident == "" && hasVal && v == val) {
			local := int64(1)
			if kind == ir.CoreEnumValue {
				local = v
				if unsignedEnum(et) && et.Size() <= 4 {
					local = int64(uint32(v)) // an unsigned enum's 0x80000000 is not negative
				}
			}
			r := fl.tmp()
			fl.emit(&ir.Instr{Op: ir.OpCore, Dst: r, Imm: local, Core: &ir.CoreReloc{Kind: kind, Type: fl.l.btf.typ(et), Access: strconv.Itoa(i)}})
			// The builtin yields 64 bits (enumerators may be wider than
			// int); cc types it int.
			return value{op: ir.R(r), t: fl.l.u.AST.Long}
		}
	}
	fl.l.errorf(args[0], "%s: the value is not an enumerator of %s", name, et)
	return value{op: ir.Imm(0), t: t}
}

// unwrap looks through parentheses and the grammar's one-child wrappers.
func unwrap(e cc.ExpressionNode) cc.ExpressionNode {
	for {
		switch x := e.(type) {
		case *cc.ExpressionList:
			if x.ExpressionList != nil {
				return e
			}
			e = x.AssignmentExpression
		case *cc.PrimaryExpression:
			if x.Case != cc.PrimaryExpressionExpr {
				return e
			}
			e = x.ExpressionList
		case *cc.PostfixExpression:
			if x.Case != cc.PostfixExpressionPrimary {
				return e
			}
			e = x.PrimaryExpression
		case *cc.UnaryExpression:
			if x.Case != cc.UnaryExpressionPostfix {
				return e
			}
			e = x.PostfixExpression
		case *cc.CastExpression:
			if x.Case != cc.CastExpressionUnary {
				return e
			}
			e = x.UnaryExpression
		default:
			return e
		}
	}
}

// derefOperand returns E of *(T *)E, casts and parentheses removed.
func derefOperand(e cc.ExpressionNode) cc.ExpressionNode {
	u, ok := unwrap(e).(*cc.UnaryExpression)
	if !ok || u.Case != cc.UnaryExpressionDeref {
		return nil
	}
	op := unwrap(u.CastExpression)
	for {
		c, ok := op.(*cc.CastExpression)
		if !ok || c.Case != cc.CastExpressionCast {
			return op
		}
		op = unwrap(c.CastExpression)
	}
}

// enumeratorName is the enumerator E names in *(T *)E, or "".
func enumeratorName(e cc.ExpressionNode) string {
	if p, ok := derefOperand(e).(*cc.PrimaryExpression); ok && p.Case == cc.PrimaryExpressionIdent {
		if en, ok := p.ResolvedTo().(*cc.Enumerator); ok {
			return en.Token.SrcStr()
		}
	}
	return ""
}

func enumeratorValue(en *cc.Enumerator) int64 {
	switch v := en.Value().(type) {
	case cc.Int64Value:
		return int64(v)
	case cc.UInt64Value:
		return int64(v)
	}
	return 0
}

// recordName is a struct or union type's tag, "" for an anonymous one.
func recordName(t cc.Type) string {
	if r, ok := t.(interface{ Tag() cc.Token }); ok {
		tag := r.Tag()
		return tag.SrcStr()
	}
	return ""
}

func typedefName(t cc.Type) string {
	if td := t.Typedef(); td != nil {
		return td.Name()
	}
	return ""
}

// coreRoot is the BTF type a relocation on root names: the record itself,
// or for an anonymous record its typedef.
func (c *btfConv) coreRoot(root cc.Type) btf.Type {
	if recordName(root) == "" && typedefName(root) != "" {
		return c.typ(root)
	}
	return c.bare(root)
}
