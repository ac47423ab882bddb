package lower

import (
	"modernc.org/cc/v4"

	"github.com/bpfcc/bpfcc/ir"
)

// lvalueOf evaluates e as an object designator.
func (fl *fnLowerer) lvalueOf(e cc.ExpressionNode) lvalue {
	t := fl.objType(e)
	switch x := e.(type) {
	case *cc.PrimaryExpression:
		switch x.Case {
		case cc.PrimaryExpressionIdent:
			return fl.identLvalue(x)
		case cc.PrimaryExpressionExpr:
			return fl.lvalueOf(x.ExpressionList)
		case cc.PrimaryExpressionString:
			name := fl.l.stringLiteral(x)
			return lvalue{t: t, sym: name}
		}
	case *cc.ExpressionList:
		if x.ExpressionList == nil {
			return fl.lvalueOf(x.AssignmentExpression)
		}
	case *cc.PostfixExpression:
		switch x.Case {
		case cc.PostfixExpressionPrimary:
			return fl.lvalueOf(x.PrimaryExpression)
		case cc.PostfixExpressionIndex:
			return fl.index(x)
		case cc.PostfixExpressionSelect:
			lv := fl.lvalueOf(x.PostfixExpression)
			if lv.reg != nil {
				fl.l.errorf(x, "internal: member of a register value")
				return lv
			}
			f := x.Field()
			switch {
			case lv.core == nil && lv.base != 0 && lv.off == 0 && f != nil:
				// (*p).f: a chain starts as it would for p->f.
				lv.core = fl.startCore(fl.objType(x.PostfixExpression), 0)
			case lv.core == nil && lv.slot != nil && f != nil && (fl.preserve > 0 || fl.l.u.PreservesAccessIndex(fl.objType(x.PostfixExpression))):
				// A local copy of a kernel record (filled by bpf_core_read)
				// has the kernel's layout: its members relocate too, as
				// with clang. (Not under __builtin_preserve_access_index
				// alone: that covers the accesses inside it.)
				if lv.core = fl.startCore(fl.objType(x.PostfixExpression), 0); lv.core != nil {
					lv.core.baseOff = lv.off
				}
			}
			if f != nil {
				lv.core = lv.core.extend(memberPath(f)...)
			}
			lv.off += fieldOffset(f)
			lv.t, lv.field = t, f
			return lv
		case cc.PostfixExpressionPSelect:
			fl.checkTraceeDeref(x.PostfixExpression)
			fl.checkArenaDeref(x.PostfixExpression)
			p := fl.rvalue(x.PostfixExpression)
			f := x.Field()
			lv := lvalue{t: t, base: fl.toReg(p), off: fieldOffset(f), field: f, volatile: pointeeVolatile(x.PostfixExpression)}
			if pt := fl.objType(x.PostfixExpression); isPtr(pt) && f != nil {
				lv.core = fl.startCore(elemType(pt), 0).extend(memberPath(f)...)
				lv.align = align(elemType(pt))
			}
			return lv
		case cc.PostfixExpressionComplit:
			return fl.compoundLiteral(x)
		case cc.PostfixExpressionCall:
			// A call returning a pointer-free aggregate is rejected elsewhere.
			v := fl.rvalue(x)
			return lvalue{t: t, base: fl.toReg(v)}
		}
	case *cc.UnaryExpression:
		switch x.Case {
		case cc.UnaryExpressionPostfix:
			return fl.lvalueOf(x.PostfixExpression)
		case cc.UnaryExpressionDeref:
			fl.checkTraceeDeref(x.CastExpression)
			fl.checkArenaDeref(x.CastExpression)
			p := fl.rvalue(x.CastExpression)
			if p.op.IsImm {
				fl.l.warnf(x, "dereferencing a constant address")
			}
			return lvalue{t: t, base: fl.toReg(p), align: align(t), volatile: pointeeVolatile(x.CastExpression)}
		}
	case *cc.CastExpression:
		if x.Case == cc.CastExpressionUnary {
			return fl.lvalueOf(x.UnaryExpression)
		}
	}
	// Not an lvalue: evaluate into a temporary slot (e.g. a struct-valued
	// conditional expression).
	v := fl.rvalue(e)
	if isAggregate(t) {
		return lvalue{t: t, base: fl.toReg(v)}
	}
	fl.l.errorf(e, "expression is not assignable")
	s := fl.newSlot("tmp", scalarSize(t), scalarSize(t))
	return lvalue{t: t, slot: s}
}

// fieldOffset is f's byte offset from the start of the outermost object
// the member access starts at (anonymous members add their parent's offset).
func fieldOffset(f *cc.Field) int64 {
	if f == nil {
		return 0
	}
	// cc reports members of anonymous structs relative to the outer type.
	return f.Offset()
}

func (fl *fnLowerer) identLvalue(x *cc.PrimaryExpression) lvalue {
	t := fl.objType(x)
	switch d := x.ResolvedTo().(type) {
	case *cc.Declarator:
		if lv, ok := fl.vars[d]; ok {
			return fl.lvalueOfLocal(lv)
		}
		if g, ok := fl.l.globals[d]; ok {
			return lvalue{t: t, sym: g.name, isMap: g.isMap}
		}
		if d.Name() == "__func__" {
			return lvalue{t: t, sym: fl.l.internString(fl.fi.name)}
		}
		if hid, ok := fl.l.helpers[d]; ok {
			// Its value is the helper's number, as clang folds it:
			// (__u64)bpf_map_update_elem is 2 (tetragon's error metrics
			// record which helper failed so).
			v := value{op: ir.Imm(hid), t: t}
			return lvalue{t: t, reg: &local{reg: fl.toReg(v), typ: t}}
		}
		if d.Type().Kind() == cc.Function {
			// A function designator as a value: its address (a callback).
			v := fl.funcAddr(x, d, d.Type().Pointer())
			return lvalue{t: t, reg: &local{reg: fl.toReg(v), typ: v.t}}
		}
		if g := fl.l.linkerExtern(d); g != nil {
			return lvalue{t: t, sym: g.name, isMap: g.isMap}
		}
		if d.IsExtern() {
			fl.l.errorf(x, "extern variable %q is not defined in this file; BPF objects cannot reference external data", d.Name())
			return fl.dummy(t)
		}
		fl.l.errorf(x, "%q cannot be used here", d.Name())
	case *cc.Parameter:
		if d.Declarator != nil {
			if lv, ok := fl.vars[d.Declarator]; ok {
				return fl.lvalueOfLocal(lv)
			}
		}
		fl.l.errorf(x, "unknown parameter %q", x.Token.SrcStr())
	default:
		fl.l.errorf(x, "undeclared identifier %q", x.Token.SrcStr())
	}
	return fl.dummy(t)
}

func (fl *fnLowerer) dummy(t cc.Type) lvalue {
	size := 8
	if s := typeSize(t); s > 0 {
		size = int(s)
	}
	return lvalue{t: t, slot: fl.f.NewSlot("error", size, 8)}
}

// index lowers a[i] (and i[a]).
func (fl *fnLowerer) index(x *cc.PostfixExpression) lvalue {
	t := fl.objType(x)
	a, i := x.PostfixExpression, x.ExpressionList
	if !isPtr(a.Type()) && a.Type().Kind() != cc.Array {
		a, i = i, a
	}
	at := fl.objType(a)
	esz := elemSize(at)
	if at.Kind() == cc.Array {
		lv := fl.lvalueOf(a)
		if c, ok := fl.constVal(i); ok && lv.reg == nil {
			lv.off += c * esz
			lv.t, lv.field = t, nil
			lv.core = lv.core.extend(int(c))
			return lv
		}
		base := fl.addr(lv)
		return lvalue{t: t, base: fl.offsetPtr(base, i, esz, false), space: lv.memSpace(), align: min(lv.alignment(), align(t))}
	}
	fl.checkTraceeDeref(a)
	fl.checkArenaDeref(a)
	p := fl.rvalue(a)
	if c, ok := fl.constVal(i); ok {
		return lvalue{t: t, base: fl.toReg(p), off: c * esz, core: fl.startCore(t, c), align: align(t)}
	}
	return lvalue{t: t, base: fl.offsetPtr(fl.toReg(p), i, esz, false), align: align(t)}
}

// offsetPtr computes base ± i*size in 64-bit arithmetic.
func (fl *fnLowerer) offsetPtr(base ir.Reg, i cc.ExpressionNode, size int64, neg bool) ir.Reg {
	iv := fl.convert(fl.rvalue(i), fl.longType(i.Type()))
	return fl.offsetPtrValue(base, iv, size, neg)
}

func (fl *fnLowerer) offsetPtrValue(base ir.Reg, iv value, size int64, neg bool) ir.Reg {
	var scaled ir.Operand
	if iv.op.IsImm {
		c := iv.op.Imm * size
		if neg {
			// The verifier forbids subtracting from a stack pointer; adding
			// a negative constant is fine.
			c, neg = -c, false
		}
		scaled = ir.Imm(c)
	} else {
		scaled = iv.op
		if size != 1 {
			r := fl.tmp()
			if sh := log2(size); sh >= 0 {
				fl.emit(&ir.Instr{Op: ir.OpALU, ALU: ir.Lsh, Dst: r, A: iv.op, B: ir.Imm(int64(sh))})
			} else {
				fl.emit(&ir.Instr{Op: ir.OpALU, ALU: ir.Mul, Dst: r, A: iv.op, B: ir.Imm(size)})
			}
			scaled = ir.R(r)
		}
	}
	if neg {
		n := fl.tmp()
		fl.emit(&ir.Instr{Op: ir.OpNeg, Dst: n, A: scaled})
		scaled = ir.R(n)
	}
	r := fl.tmp()
	fl.emit(&ir.Instr{Op: ir.OpALU, ALU: ir.Add, Dst: r, A: ir.R(base), B: scaled})
	return r
}

func log2(v int64) int {
	if v <= 0 || v&(v-1) != 0 {
		return -1
	}
	n := 0
	for v > 1 {
		v >>= 1
		n++
	}
	return n
}

// compoundLiteral materialises (T){...} in a stack slot.
func (fl *fnLowerer) compoundLiteral(x *cc.PostfixExpression) lvalue {
	t := x.TypeName.Type()
	size := typeSize(t)
	if size == 0 {
		size = 1
	}
	lv := &local{typ: t, slot: fl.newSlot("complit", int(size), align(t))}
	fl.initLocalList(lv, x.InitializerList)
	return lvalue{t: t, slot: lv.slot}
}

// objType is the type of the object e designates, before array-to-pointer
// decay: cc reports the decayed type (pointer to element) for array
// expressions in value context.
func (fl *fnLowerer) objType(e cc.ExpressionNode) cc.Type {
	switch x := e.(type) {
	case *cc.PrimaryExpression:
		switch x.Case {
		case cc.PrimaryExpressionIdent:
			switch d := x.ResolvedTo().(type) {
			case *cc.Declarator:
				return d.Type()
			case *cc.Parameter:
				return d.Type()
			}
		case cc.PrimaryExpressionExpr:
			return fl.objType(x.ExpressionList)
		}
	case *cc.ExpressionList:
		if x.ExpressionList == nil {
			return fl.objType(x.AssignmentExpression)
		}
	case *cc.PostfixExpression:
		switch x.Case {
		case cc.PostfixExpressionPrimary:
			return fl.objType(x.PrimaryExpression)
		case cc.PostfixExpressionIndex:
			a := x.PostfixExpression
			if !isPtr(a.Type()) && a.Type().Kind() != cc.Array {
				a = x.ExpressionList
			}
			if at := fl.objType(a); at.Kind() == cc.Array || at.Kind() == cc.Ptr {
				return elemType(at)
			}
		case cc.PostfixExpressionSelect, cc.PostfixExpressionPSelect:
			if f := x.Field(); f != nil {
				return f.Type()
			}
		case cc.PostfixExpressionComplit:
			return x.TypeName.Type()
		}
	case *cc.UnaryExpression:
		switch x.Case {
		case cc.UnaryExpressionPostfix:
			return fl.objType(x.PostfixExpression)
		case cc.UnaryExpressionDeref:
			if pt := fl.objType(x.CastExpression); pt.Kind() == cc.Ptr {
				return elemType(pt)
			}
		}
	case *cc.CastExpression:
		if x.Case == cc.CastExpressionUnary {
			return fl.objType(x.UnaryExpression)
		}
	}
	return e.Type()
}
