package randgen

// Expressions of the generated programs: constants, operators kept free of undefined behaviour, reads and assignments.

import (
	"slices"
)

func (g *gen) scalarType() Type { return pick(g, g.types) }

func cInt(v uint64) *Expr { return &Expr{Op: OpConst, T: tInt, V: tInt.conv(v)} }

func (g *gen) constant() *Expr {
	var t Type
	switch g.r.Intn(10) {
	case 0, 1, 2, 3:
		t = tInt
	case 4, 5:
		t = tUInt
	case 6:
		t = tLong
	case 7:
		t = tULong
	default:
		t = g.scalarType()
	}
	var v uint64
	switch g.r.Intn(9) {
	case 0:
		v = uint64(g.r.Intn(3))
	case 1:
		v = ^uint64(0)
	case 2:
		v = t.min()
	case 3:
		v = t.max()
	case 4:
		v = t.max() - uint64(g.r.Intn(3))
	case 5:
		v = 1<<uint(g.r.Intn(64)) + uint64(g.r.Intn(3)) - 1
	case 6:
		v = g.r.Uint64()
	default:
		v = uint64(g.r.Intn(600) - 300)
	}
	if t == tInt && g.chance(0.1) {
		// An enumerator.
		names := []struct {
			n string
			v int64
		}{{"E0_A", -3}, {"E0_B", 1}, {"E0_C", 1000}, {"E1_A", 0}, {"E1_B", 7}, {"E1_C", 40000}}
		if g.opts.NoUnsignedEnum {
			names = names[:3]
		}
		e := pick(g, names)
		return &Expr{Op: OpConst, Sub: e.n, T: tInt, V: uint64(e.v)}
	}
	return &Expr{Op: OpConst, T: t, V: t.conv(v)}
}

// ectx says what an expression may read and modify. Each variable in
// writes is modified at most once and read nowhere else, so no two
// unsequenced accesses conflict.
type ectx struct {
	reads  []*Var
	writes []*Var
}

func (c *ectx) takeWrite(g *gen, scalarOnly bool) *Var {
	var idx []int
	for i, v := range c.writes {
		if !scalarOnly || v.Kind == Scalar {
			idx = append(idx, i)
		}
	}
	if len(idx) == 0 {
		return nil
	}
	i := pick(g, idx)
	v := c.writes[i]
	c.writes = slices.Delete(slices.Clone(c.writes), i, i+1)
	return v
}

func isConst(e *Expr) bool {
	switch e.Op {
	case OpConst:
		return true
	case OpUnary, OpBinary, OpLogical, OpCond, OpComma, OpCast, OpSafe:
		for _, a := range e.Args {
			if !isConst(a) {
				return false
			}
		}
		return true
	}
	return false
}

// constUB reports whether a constant expression has undefined behaviour.
func constUB(e *Expr) (bad bool) {
	if !isConst(e) {
		return false
	}
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(UB); !ok {
				panic(r)
			}
			bad = true
		}
	}()
	(&interp{}).eval(e, frame{})
	return false
}

func node(op Op, sub string, t Type, args ...*Expr) *Expr {
	return &Expr{Op: op, Sub: sub, T: t, Args: args}
}

func cast(t Type, x *Expr) *Expr { return node(OpCast, "", t, x) }

// rv wraps a bit-field read in unary + where its own type would otherwise
// escape (comma and ?: results), since compilers disagree on the type of a
// bit-field there.
func rv(e *Expr) *Expr {
	if e.Op == OpField && e.Field.Width > 0 {
		return node(OpUnary, "+", promote(e.T), e)
	}
	return e
}

func unary(op string, x *Expr) *Expr {
	if op == "!" {
		return node(OpUnary, op, tInt, x)
	}
	return node(OpUnary, op, promote(x.T), x)
}

func binType(op string, l, r Type) Type {
	switch op {
	case "<<", ">>":
		return promote(l)
	case "<", ">", "<=", ">=", "==", "!=":
		return tInt
	}
	return arith(l, r)
}

func binary(op string, l, r *Expr) *Expr {
	return node(OpBinary, op, binType(op, l.T, r.T), l, r)
}

func (g *gen) safeNeg(x *Expr) *Expr {
	pt := promote(x.T)
	if !pt.Signed {
		return unary("-", x)
	}
	return cast(pt, unary("-", cast(unsignedOf(pt), x)))
}

func (g *gen) neg(x *Expr) *Expr {
	if g.safe {
		return g.safeNeg(x)
	}
	e := unary("-", x)
	if constUB(e) {
		return g.safeNeg(x)
	}
	return e
}

// divisor makes r nonzero and never -1.
func (g *gen) divisor(r *Expr) *Expr {
	if g.chance(0.5) {
		return binary("|", binary("&", r, cInt(tInt.conv(^uint64(1)))), cInt(2))
	}
	m := pick(g, []uint64{0x7f, 0xff, 0x7fff, 0x7fffffff})
	return binary("|", binary("&", r, cInt(m)), cInt(1))
}

func (g *gen) safeDiv(op string, l, r *Expr) *Expr {
	ct := arith(l.T, r.T)
	if g.chance(0.5) {
		name := ""
		switch ct {
		case tInt:
			name = "sdiv32"
		case tUInt:
			name = "udiv32"
		case tLong:
			name = "sdiv64"
		default:
			name = "udiv64"
		}
		if op == "%" {
			name = name[:1] + "mod" + name[4:]
		}
		g.p.safeUsed[name] = true
		if ct.Signed {
			g.p.SignedDiv = true
		}
		return node(OpSafe, name, ct, cast(ct, l), cast(ct, r))
	}
	e := binary(op, l, g.divisor(r))
	if e.T.Signed {
		g.p.SignedDiv = true
	}
	return e
}

func (g *gen) shiftCount(pt Type, r *Expr) *Expr {
	if r == nil || g.chance(0.5) {
		return cInt(uint64(g.r.Intn(pt.Bits)))
	}
	return binary("&", r, cInt(uint64(pt.Bits-1)))
}

// arithBin builds l op r, in a form without undefined behaviour in safe
// mode (and where both operands are constants).
func (g *gen) arithBin(op string, l, r *Expr) *Expr {
	ct := arith(l.T, r.T)
	switch op {
	case "+", "-", "*":
		e := binary(op, l, r)
		if ct.Signed && (g.safe || constUB(e)) {
			ut := unsignedOf(ct)
			return cast(ct, binary(op, cast(ut, l), cast(ut, r)))
		}
		return e
	case "/", "%":
		if g.safe {
			return g.safeDiv(op, l, r)
		}
		e := binary(op, l, r)
		if isConst(r) {
			rv := ct.conv((&interp{}).eval(r, frame{}))
			if rv == 0 || ct.Signed && int64(rv) == -1 || constUB(e) {
				return g.safeDiv(op, l, r)
			}
		}
		if ct.Signed {
			g.p.SignedDiv = true
		}
		return e
	case "<<", ">>":
		pt := promote(l.T)
		if g.safe || isConst(r) || g.chance(0.6) {
			if isConst(r) && !g.safe {
				r = nil
			}
			cnt := g.shiftCount(pt, r)
			if op == "<<" && pt.Signed && (g.safe || isConst(l)) {
				return cast(pt, binary("<<", cast(unsignedOf(pt), l), cnt))
			}
			e := binary(op, l, cnt)
			if constUB(e) {
				return cast(pt, binary(op, cast(unsignedOf(pt), l), cnt))
			}
			return e
		}
		return binary(op, l, r)
	}
	return binary(op, l, r)
}

var binOps = []string{"+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^",
	"<", ">", "<=", ">=", "==", "!=", "+", "-", "*", "&", "^"}

func (g *gen) expr(c *ectx, d int) *Expr {
	if d <= 0 || g.chance(0.2) {
		return g.leaf(c)
	}
	switch n := g.r.Intn(100); {
	case n < 40:
		op := pick(g, binOps)
		return g.arithBin(op, g.expr(c, d-1), g.expr(c, d-1))
	case n < 50:
		op := pick(g, []string{"-", "~", "!", "+", "-"})
		x := g.expr(c, d-1)
		if op == "-" {
			return g.neg(x)
		}
		return unary(op, x)
	case n < 57:
		return node(OpLogical, pick(g, []string{"&&", "||"}), tInt, g.expr(c, d-1), g.expr(c, d-1))
	case n < 63:
		a, b := rv(g.expr(c, d-1)), rv(g.expr(c, d-1))
		return node(OpCond, "", arith(a.T, b.T), g.expr(c, d-1), a, b)
	case n < 66:
		b := rv(g.expr(c, d-1))
		return node(OpComma, "", b.T, g.expr(c, d-1), b)
	case n < 76:
		return cast(g.scalarType(), g.expr(c, d-1))
	case n < 86:
		if v := c.takeWrite(g, false); v != nil {
			if lv := g.lvalueOf(v, c, true); lv != nil {
				return g.assign(lv, c, d-1)
			}
		}
	case n < 90:
		if v := c.takeWrite(g, false); v != nil {
			if lv := g.lvalueOf(v, c, true); lv != nil {
				return g.incdec(lv, c, d-1)
			}
		}
	case n < 97:
		if len(g.callable) > 0 && g.calls > 0 {
			g.calls--
			f := pick(g, g.callable)
			var args []*Expr
			for range f.Params {
				args = append(args, g.expr(c, d-1))
			}
			return &Expr{Op: OpCall, Fn: f, T: f.Ret, Args: args}
		}
	}
	return g.leaf(c)
}

func (g *gen) leaf(c *ectx) *Expr {
	if len(c.reads) == 0 || g.chance(0.3) {
		return g.constant()
	}
	return g.read(pick(g, c.reads), c)
}

// index is a constant index or a masked expression in range for v.
func (g *gen) index(v *Var, c *ectx) *Expr {
	if v.N < 4 || g.chance(0.6) {
		return cInt(uint64(g.r.Intn(v.N)))
	}
	rc := &ectx{reads: c.reads}
	return binary("&", g.expr(rc, 1), cInt(uint64(v.N-1)))
}

func (g *gen) read(v *Var, c *ectx) *Expr {
	switch v.Kind {
	case Array:
		return &Expr{Op: OpIndex, Var: v, T: v.T, Args: []*Expr{g.index(v, c)}}
	case Struct:
		f := pick(g, v.S.Fields)
		return &Expr{Op: OpField, Var: v, Field: f, T: f.Type()}
	}
	return &Expr{Op: OpVar, Var: v, T: v.T}
}

// lvalueOf picks an lvalue in v; nested assignments avoid bit-fields,
// whose type as an assignment's value compilers disagree on.
func (g *gen) lvalueOf(v *Var, c *ectx, nested bool) *Expr {
	if v.Kind == Struct && nested {
		var fs []*Field
		for _, f := range v.S.Fields {
			if f.Width == 0 {
				fs = append(fs, f)
			}
		}
		if len(fs) == 0 {
			return nil
		}
		f := pick(g, fs)
		return &Expr{Op: OpField, Var: v, Field: f, T: f.Type()}
	}
	return g.read(v, c)
}

func copyLV(lv *Expr) *Expr {
	c := *lv
	return &c
}

var assignOps = []string{"=", "=", "=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "|=", "^="}

func (g *gen) assign(lv *Expr, c *ectx, d int) *Expr {
	r := g.expr(c, d)
	op := pick(g, assignOps)
	if g.opts.NoBitFieldDivAssign && lv.Op == OpField && lv.Field.Width > 0 && (op == "/=" || op == "%=") {
		op = "="
	}
	lt := lv.T
	mk := func(op string, r *Expr) *Expr { return node(OpAssign, op, lt, lv, r) }
	switch op {
	case "=", "&=", "|=", "^=":
		return mk(op, r)
	case "+=", "-=", "*=":
		if arith(lt, r.T).Signed && g.safe {
			return mk("=", g.arithBin(op[:1], copyLV(lv), r))
		}
		return mk(op, r)
	case "/=", "%=":
		if g.safe {
			r = g.divisor(r)
		} else if isConst(r) {
			r = g.divisor(r)
		}
		if arith(lt, r.T).Signed {
			g.p.SignedDiv = true
		}
		return mk(op, r)
	default: // shifts
		pt := promote(lt)
		if g.safe || isConst(r) || g.chance(0.6) {
			if isConst(r) && !g.safe {
				r = nil
			}
			cnt := g.shiftCount(pt, r)
			if op == "<<=" && pt.Signed && g.safe {
				return mk("=", g.arithBin("<<", copyLV(lv), cnt))
			}
			return mk(op, cnt)
		}
		return mk(op, r)
	}
}

func (g *gen) incdec(lv *Expr, c *ectx, d int) *Expr {
	pt := promote(lv.T)
	if g.safe && pt.Signed && lv.T.Bits >= 32 {
		return g.assign(lv, c, d)
	}
	return &Expr{Op: OpIncDec, Sub: pick(g, []string{"++", "--"}), Post: g.chance(0.5), T: lv.T, Args: []*Expr{lv}}
}

func (g *gen) writable() []*Var {
	var ws []*Var
	for _, v := range g.scope {
		if !v.ReadOnly {
			ws = append(ws, v)
		}
	}
	return ws
}

// exprCtx makes a context that may modify up to n variables other than
// the excluded ones.
func (g *gen) exprCtx(n int, exclude *Var) *ectx {
	c := &ectx{}
	ws := g.writable()
	g.r.Shuffle(len(ws), func(i, j int) { ws[i], ws[j] = ws[j], ws[i] })
	for _, v := range ws {
		if len(c.writes) < n && v != exclude && g.chance(0.5) {
			c.writes = append(c.writes, v)
		}
	}
	for _, v := range g.scope {
		if !slices.Contains(c.writes, v) {
			c.reads = append(c.reads, v)
		}
	}
	return c
}

func (g *gen) exprDepth() int { return 1 + g.r.Intn(4) }
