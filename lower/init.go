package lower

import (
	"sort"

	"modernc.org/cc/v4"

	"github.com/bpfcc/bpfcc/ir"
)

// initLocal initialises a local from its initializer.
func (fl *fnLowerer) initLocal(lv *local, ini *cc.Initializer) {
	if ini.Case == cc.InitializerInitList {
		if convertible(lv.typ) {
			// Scalar initialised with braces: int x = {5};
			if l := ini.InitializerList; l != nil && l.Initializer != nil && l.Initializer.Case == cc.InitializerExpr {
				fl.storeVar(lv, fl.rvalue(l.Initializer.AssignmentExpression))
			} else {
				fl.storeVar(lv, value{op: ir.Imm(0), t: lv.typ})
			}
			return
		}
		fl.initLocalList(lv, ini.InitializerList)
		return
	}
	e := ini.AssignmentExpression
	if lv.typ.Kind() == cc.Array {
		if s, ok := stringBytes(e.Value()); ok {
			fl.initString(lv, s)
			return
		}
		// char a[] = ("str")
		fl.l.errorf(e, "unsupported array initializer")
		return
	}
	if !initCompatible(lv.typ, e.Type()) {
		fl.l.errorf(e, "invalid initializer: %s cannot be initialised with a value of type %s", typeName(lv.typ), typeName(e.Type()))
		return
	}
	fl.checkIntPointer(e, lv.typ, initializing)
	fl.noteReserve(lv.typ, e)
	if fl.elideStmtExprCopy(lv, e) {
		return
	}
	fl.storeVar(lv, fl.rvalue(e))
}

// elideStmtExprCopy initialises an aggregate local from a statement
// expression whose value is one of its own objects by making that object
// the local, as clang forwards the copy: KubeArmor's `struct sock_common
// conn = READ_KERN(sk->__sk_common)` held the 136 bytes twice, and its
// frame went over BPF's 512.
func (fl *fnLowerer) elideStmtExprCopy(lv *local, e cc.ExpressionNode) bool {
	x, ok := stripParens(e).(*cc.PrimaryExpression)
	if !ok || x.Case != cc.PrimaryExpressionStmt || lv.slot == nil || lv.slot.Volatile || !isAggregate(lv.typ) {
		return false
	}
	d := stmtExprObject(x.CompoundStatement)
	if d == nil || hasCleanup(d) {
		return false
	}
	v := fl.rvalue(e)
	inner := fl.vars[d]
	if inner == nil || inner.slot == nil || inner.slot.Volatile || inner.slot.Size != lv.slot.Size {
		fl.storeVar(lv, v) // not an object of its own after all: copy it
		return true
	}
	inner.slot.Scope, inner.slot.Born = lv.slot.Scope, lv.slot.Born
	inner.slot.Align = max(inner.slot.Align, lv.slot.Align)
	lv.slot = inner.slot
	return true
}

// stmtExprObject returns the object a statement expression's value names
// when the expression declares it itself: ({ T v; ...; v; }).
func stmtExprObject(cs *cc.CompoundStatement) *cc.Declarator {
	var last *cc.BlockItem
	own := map[*cc.Declarator]bool{}
	for l := cs.BlockItemList; l != nil; l = l.BlockItemList {
		bi := l.BlockItem
		if bi == nil {
			continue
		}
		last = bi
		if bi.Case != cc.BlockItemDecl || bi.Declaration == nil {
			continue
		}
		if bi.Declaration.Case == cc.DeclarationAuto {
			own[bi.Declaration.Declarator] = true
		}
		for il := bi.Declaration.InitDeclaratorList; il != nil; il = il.InitDeclaratorList {
			if il.InitDeclarator != nil && il.InitDeclarator.Declarator != nil {
				own[il.InitDeclarator.Declarator] = true
			}
		}
	}
	if last == nil || last.Case != cc.BlockItemStmt || last.Statement == nil || last.Statement.Case != cc.StatementExpr {
		return nil
	}
	es := last.Statement.ExpressionStatement
	if es == nil || es.ExpressionList == nil {
		return nil
	}
	id, ok := stripParens(es.ExpressionList).(*cc.PrimaryExpression)
	if !ok || id.Case != cc.PrimaryExpressionIdent {
		return nil
	}
	d, ok := id.ResolvedTo().(*cc.Declarator)
	if !ok || !own[d] || d.IsStatic() || d.IsExtern() {
		return nil
	}
	return d
}

// initCompatible reports whether a struct or union object can take its
// value from an expression of type from, as C requires: the same kind of
// aggregate (the front end has already matched tags), and a scalar object
// only a scalar.
func initCompatible(to, from cc.Type) bool {
	if from == nil || from.Kind() == cc.InvalidKind {
		return true
	}
	ta, fa := to.Kind() == cc.Struct || to.Kind() == cc.Union, from.Kind() == cc.Struct || from.Kind() == cc.Union
	if ta || fa {
		return to.Kind() == from.Kind() && typeSize(to) == typeSize(from)
	}
	return true
}

// initString copies a string literal into a char array, zero-padding.
func (fl *fnLowerer) initString(lv *local, s []byte) {
	size := typeSize(lv.typ)
	buf := make([]byte, size)
	copy(buf, s)
	fl.storeBytes(lvalue{t: lv.typ, slot: lv.slot}, 0, buf, lv.slot.Align)
}

// storeBytes stores constant bytes at dst+off with immediate stores.
func (fl *fnLowerer) storeBytes(dst lvalue, off int64, buf []byte, al int) {
	db, doff := fl.memBase(dst)
	n := int64(len(buf))
	for done := int64(0); done < n; {
		w := chunk(n-done, min(al, alignAt(off+done)))
		var v uint64
		for i := w - 1; i >= 0; i-- {
			v = v<<8 | uint64(buf[done+i])
		}
		var op ir.Operand
		switch w {
		case 8:
			if int64(v) >= -1<<31 && int64(v) <= 1<<31-1 {
				op = ir.Imm(int64(v))
			} else {
				op = ir.R(fl.toReg(value{op: ir.Imm(int64(v))}))
			}
		case 4:
			op = ir.Imm(int64(int32(uint32(v))))
		default:
			op = ir.Imm(int64(v))
		}
		fl.emit(&ir.Instr{Op: ir.OpStore, A: ir.R(db), B: op, Off: doff + off + done, Size: int(w), Space: dst.memSpace()})
		done += w
	}
}

// alignAt is the largest power-of-two alignment (≤ 8) of offset off.
func alignAt(off int64) int {
	for _, a := range []int{8, 4, 2} {
		if off%int64(a) == 0 {
			return a
		}
	}
	return 1
}

type leafInit struct {
	off   int64
	t     cc.Type
	field *cc.Field
	e     cc.ExpressionNode
	n     int64 // [lo ... hi] repeat count
	ini   *cc.Initializer
	// reset marks a braced initializer of a sub-object: it replaces
	// whatever earlier initializers put there (C11 6.7.9p19), so the
	// sub-object is zeroed first. e is nil.
	reset bool
}

// initLeaves is leaves with a reset entry before each braced sub-object
// initializer, in the order the initializers appear.
func initLeaves(l *cc.InitializerList) []leafInit {
	var out []leafInit
	var walk func(l *cc.InitializerList)
	walk = func(l *cc.InitializerList) {
		for ; l != nil; l = l.InitializerList {
			in := l.Initializer
			if in == nil {
				continue
			}
			if in.Case == cc.InitializerInitList {
				out = append(out, leafInit{off: in.Offset(), t: in.Type(), n: 1, ini: in, reset: true})
				walk(in.InitializerList)
				continue
			}
			out = append(out, leafInit{off: in.Offset(), t: in.Type(), field: in.Field(), e: in.AssignmentExpression, n: in.Len(), ini: in})
		}
	}
	walk(l)
	sort.SliceStable(out, func(i, j int) bool { return out[i].ini.Order() < out[j].ini.Order() })
	return out
}

// leaves flattens an initializer list into the scalar (or string/struct
// expression) initializers it contains, with absolute offsets.
func leaves(l *cc.InitializerList, out []leafInit) []leafInit {
	for ; l != nil; l = l.InitializerList {
		in := l.Initializer
		if in == nil {
			continue
		}
		if in.Case == cc.InitializerInitList {
			out = leaves(in.InitializerList, out)
			continue
		}
		out = append(out, leafInit{off: in.Offset(), t: in.Type(), field: in.Field(), e: in.AssignmentExpression, n: in.Len(), ini: in})
	}
	return out
}

// initLocalList zero-fills an aggregate and stores each initializer.
func (fl *fnLowerer) initLocalList(lv *local, list *cc.InitializerList) {
	size := typeSize(lv.typ)
	dst := lvalue{t: lv.typ, slot: lv.slot}
	ls := initLeaves(list)
	allConst := true
	for _, x := range ls {
		if x.reset {
			continue
		}
		if _, ok := fl.constVal(x.e); !ok || x.field != nil && x.field.IsBitfield() || !convertible(x.t) {
			allConst = false
		}
	}
	if allConst {
		// Build the image at compile time; store it in wide chunks.
		buf := make([]byte, size)
		for _, x := range ls {
			if x.reset {
				clear(buf[max(x.off, 0):min(x.off+typeSize(x.t), size)])
				continue
			}
			c, _ := fl.constVal(x.e)
			esz := int64(scalarSize(x.t))
			for k := int64(0); k < x.n; k++ {
				putInt(buf, x.off+k*esz, esz, truncate(c, x.t))
			}
		}
		fl.storeBytes(dst, 0, buf, lv.slot.Align)
		return
	}
	fl.memset(dst, 0, size, lv.slot.Align)
	var done [][2]int64 // byte ranges initialised so far
	for _, x := range ls {
		esz := typeSize(x.t)
		if x.reset {
			lo, hi := x.off, x.off+esz
			for _, r := range done {
				if r[0] < hi && lo < r[1] {
					// A later braced initializer replaces the sub-object.
					fl.memset(lvalue{t: x.t, slot: lv.slot, off: lo}, 0, esz, 1)
					break
				}
			}
			continue
		}
		done = append(done, [2]int64{x.off, x.off + esz*max(x.n, 1)})
		for k := int64(0); k < x.n; k++ {
			elem := lvalue{t: x.t, slot: lv.slot, off: x.off + k*esz, field: x.field}
			if s, ok := stringBytes(x.e.Value()); ok && x.t.Kind() == cc.Array {
				buf := make([]byte, typeSize(x.t))
				copy(buf, s)
				fl.storeBytes(elem, 0, buf, 1)
				continue
			}
			v := fl.rvalue(x.e)
			if convertible(x.t) {
				v = fl.convert(v, x.t)
			}
			fl.store(elem, v)
		}
	}
}

// putInt writes the low size bytes of v little-endian at off.
func putInt(buf []byte, off, size int64, v int64) {
	for i := int64(0); i < size && off+i < int64(len(buf)); i++ {
		if off+i >= 0 {
			buf[off+i] = byte(v >> (8 * i))
		}
	}
}

func (fl *fnLowerer) longType(t cc.Type) cc.Type {
	if isSigned(t) || !cc.IsIntegerType(t) {
		return fl.l.u.AST.Long
	}
	return fl.l.u.AST.ULong
}

// boolType is the type of a materialised truth value (C's int).
func (fl *fnLowerer) boolType(cc.Type) cc.Type { return fl.l.u.AST.Int }
