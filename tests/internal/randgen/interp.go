package randgen

import (
	"fmt"
	"math/big"
)

// UB is the panic value the interpreter raises on undefined behaviour.
type UB struct{ Msg string }

func (u UB) Error() string { return "undefined behaviour: " + u.Msg }

func ub(format string, args ...any) { panic(UB{fmt.Sprintf(format, args...)}) }

type frame map[*Var][]uint64

func (fr frame) clone() frame {
	c := make(frame, len(fr))
	for k, v := range fr {
		c[k] = append([]uint64(nil), v...)
	}
	return c
}

type ctl int

const (
	ctlNone ctl = iota
	ctlBreak
	ctlContinue
	ctlReturn
)

type interp struct {
	steps int
	ret   uint64
	seen  map[*Expr]bool // evaluated nodes, when non-nil
}

func (it *interp) tick() {
	it.steps++
	if it.steps > 1_000_000 {
		panic("randgen: interpreter step limit")
	}
}

// evalBin applies a binary operator to canonical values of types lt and rt.
func evalBin(op string, l uint64, lt Type, r uint64, rt Type) (uint64, Type) {
	switch op {
	case "<<", ">>":
		pt, ct := promote(lt), promote(rt)
		if ct.Signed && int64(r) < 0 || r >= uint64(pt.Bits) {
			ub("shift count %d for %s", int64(r), pt.Name)
		}
		if op == ">>" {
			if pt.Signed {
				return pt.conv(uint64(int64(l) >> r)), pt
			}
			return pt.conv(l >> r), pt
		}
		if pt.Signed {
			if int64(l) < 0 {
				ub("left shift of negative %d", int64(l))
			}
			if r > 0 && l>>(uint64(pt.Bits-1)-r) != 0 {
				ub("left shift %d << %d overflows %s", l, r, pt.Name)
			}
		}
		return pt.conv(l << r), pt
	}
	ct := arith(lt, rt)
	a, b := ct.conv(l), ct.conv(r)
	cmp := func(c bool) (uint64, Type) {
		if c {
			return 1, tInt
		}
		return 0, tInt
	}
	less := func(x, y uint64) bool {
		if ct.Signed {
			return int64(x) < int64(y)
		}
		return x < y
	}
	switch op {
	case "==":
		return cmp(a == b)
	case "!=":
		return cmp(a != b)
	case "<":
		return cmp(less(a, b))
	case ">":
		return cmp(less(b, a))
	case "<=":
		return cmp(!less(b, a))
	case ">=":
		return cmp(!less(a, b))
	case "&":
		return ct.conv(a & b), ct
	case "|":
		return ct.conv(a | b), ct
	case "^":
		return ct.conv(a ^ b), ct
	case "+", "-", "*":
		if ct.Signed {
			x, y := big.NewInt(int64(a)), big.NewInt(int64(b))
			z := new(big.Int)
			switch op {
			case "+":
				z.Add(x, y)
			case "-":
				z.Sub(x, y)
			default:
				z.Mul(x, y)
			}
			lo := big.NewInt(int64(ct.min()))
			hi := big.NewInt(int64(ct.max()))
			if z.Cmp(lo) < 0 || z.Cmp(hi) > 0 {
				ub("%d %s %d overflows %s", int64(a), op, int64(b), ct.Name)
			}
			return ct.conv(uint64(z.Int64())), ct
		}
		switch op {
		case "+":
			return ct.conv(a + b), ct
		case "-":
			return ct.conv(a - b), ct
		}
		return ct.conv(a * b), ct
	case "/", "%":
		if b == 0 {
			ub("division by zero")
		}
		if ct.Signed {
			if a == ct.min() && int64(b) == -1 {
				ub("%d %s -1 overflows", int64(a), op)
			}
			if op == "/" {
				return ct.conv(uint64(int64(a) / int64(b))), ct
			}
			return ct.conv(uint64(int64(a) % int64(b))), ct
		}
		if op == "/" {
			return ct.conv(a / b), ct
		}
		return ct.conv(a % b), ct
	}
	panic("randgen: bad operator " + op)
}

func evalSafe(name string, a, b uint64) uint64 {
	switch name {
	case "sdiv32", "smod32":
		x, y := int32(a), int32(b)
		if y == 0 || x == -1<<31 && y == -1 {
			return tInt.conv(a)
		}
		if name == "sdiv32" {
			return tInt.conv(uint64(int64(x / y)))
		}
		return tInt.conv(uint64(int64(x % y)))
	case "udiv32", "umod32":
		x, y := uint32(a), uint32(b)
		if y == 0 {
			return uint64(x)
		}
		if name == "udiv32" {
			return uint64(x / y)
		}
		return uint64(x % y)
	case "sdiv64", "smod64":
		x, y := int64(a), int64(b)
		if y == 0 || x == -1<<63 && y == -1 {
			return a
		}
		if name == "sdiv64" {
			return uint64(x / y)
		}
		return uint64(x % y)
	case "udiv64", "umod64":
		if b == 0 {
			return a
		}
		if name == "udiv64" {
			return a / b
		}
		return a % b
	}
	panic("randgen: bad safe helper " + name)
}

// lvalue locates an lvalue's storage.
func (it *interp) lvalue(e *Expr, fr frame) ([]uint64, int, Type) {
	switch e.Op {
	case OpVar:
		return fr[e.Var], 0, e.Var.T
	case OpIndex:
		i := it.eval(e.Args[0], fr)
		if i >= uint64(e.Var.N) {
			panic(fmt.Sprintf("randgen: index %d out of range for %s", int64(i), e.Var.Name))
		}
		return fr[e.Var], int(i), e.Var.T
	case OpField:
		return fr[e.Var], e.Field.Idx, e.Field.Type()
	}
	panic("randgen: not an lvalue")
}

func (it *interp) eval(e *Expr, fr frame) uint64 {
	it.tick()
	if it.seen != nil {
		it.seen[e] = true
	}
	switch e.Op {
	case OpConst:
		return e.V
	case OpVar, OpIndex, OpField:
		s, i, _ := it.lvalue(e, fr)
		if s == nil {
			panic("randgen: variable " + e.Var.Name + " not in frame")
		}
		return s[i]
	case OpUnary:
		x := it.eval(e.Args[0], fr)
		pt := promote(e.Args[0].T)
		switch e.Sub {
		case "-":
			if pt.Signed && x == pt.min() {
				ub("negation of %d", int64(x))
			}
			return pt.conv(-x)
		case "~":
			return pt.conv(^x)
		case "!":
			if x == 0 {
				return 1
			}
			return 0
		case "+":
			return x
		}
	case OpBinary:
		l := it.eval(e.Args[0], fr)
		r := it.eval(e.Args[1], fr)
		v, _ := evalBin(e.Sub, l, e.Args[0].T, r, e.Args[1].T)
		return v
	case OpLogical:
		l := it.eval(e.Args[0], fr) != 0
		if l == (e.Sub == "||") {
			if l {
				return 1
			}
			return 0
		}
		if it.eval(e.Args[1], fr) != 0 {
			return 1
		}
		return 0
	case OpCond:
		if it.eval(e.Args[0], fr) != 0 {
			return e.T.conv(it.eval(e.Args[1], fr))
		}
		return e.T.conv(it.eval(e.Args[2], fr))
	case OpComma:
		it.eval(e.Args[0], fr)
		return it.eval(e.Args[1], fr)
	case OpCast:
		return e.T.conv(it.eval(e.Args[0], fr))
	case OpAssign:
		s, i, t := it.lvalue(e.Args[0], fr)
		r := it.eval(e.Args[1], fr)
		if e.Sub != "=" {
			r, _ = evalBin(e.Sub[:len(e.Sub)-1], s[i], t, r, e.Args[1].T)
		}
		s[i] = t.conv(r)
		return s[i]
	case OpIncDec:
		s, i, t := it.lvalue(e.Args[0], fr)
		old := s[i]
		nv, _ := evalBin(e.Sub[:1], old, t, 1, tInt)
		s[i] = t.conv(nv)
		if e.Post {
			return old
		}
		return s[i]
	case OpCall:
		args := make([]uint64, len(e.Args))
		for i, a := range e.Args {
			args[i] = it.eval(a, fr)
		}
		return it.call(e.Fn, args)
	case OpSafe:
		a := it.eval(e.Args[0], fr)
		b := it.eval(e.Args[1], fr)
		return evalSafe(e.Sub, a, b)
	}
	panic(fmt.Sprintf("randgen: bad expression %d", e.Op))
}

func (it *interp) call(f *Func, args []uint64) uint64 {
	fr := frame{}
	for i, p := range f.Params {
		fr[p] = []uint64{p.T.conv(args[i])}
	}
	it.decls(f.Decls, fr)
	if it.block(f.Body, fr) != ctlReturn {
		panic("randgen: function " + f.Name + " did not return")
	}
	return f.Ret.conv(it.ret)
}

func (it *interp) initVar(v *Var, in Init, fr frame) {
	switch v.Kind {
	case Scalar:
		fr[v] = []uint64{v.T.conv(it.eval(in.Elems[0], fr))}
	case Array:
		s := make([]uint64, v.N)
		for i, e := range in.Elems {
			s[i] = v.T.conv(it.eval(e, fr))
		}
		fr[v] = s
	case Struct:
		s := make([]uint64, len(v.S.Fields))
		for i, e := range in.Fields {
			if e != nil {
				s[i] = v.S.Fields[i].Type().conv(it.eval(e, fr))
			}
		}
		fr[v] = s
	}
}

func (it *interp) decls(ds []*Decl, fr frame) {
	for _, d := range ds {
		it.initVar(d.Var, d.Init, fr)
	}
}

func (it *interp) block(ss []*Stmt, fr frame) ctl {
	for _, s := range ss {
		if c := it.stmt(s, fr); c != ctlNone {
			return c
		}
	}
	return ctlNone
}

func (it *interp) stmt(s *Stmt, fr frame) ctl {
	it.tick()
	switch s.Kind {
	case SExpr:
		it.eval(s.E, fr)
	case SIf:
		if it.eval(s.E, fr) != 0 {
			return it.block(s.Body, fr)
		}
		return it.block(s.Else, fr)
	case SFor:
		for i := 0; i < s.N; i++ {
			fr[s.Var] = []uint64{uint64(i)}
			c := it.block(s.Body, fr)
			if c == ctlBreak {
				break
			}
			if c == ctlReturn {
				return c
			}
		}
		delete(fr, s.Var)
	case SSwitch:
		v := promote(s.E.T).conv(it.eval(s.E, fr))
		start := -1
		for i, c := range s.Cases {
			if !c.Default && promote(s.E.T).conv(c.Val) == v {
				start = i
			}
		}
		if start < 0 {
			for i, c := range s.Cases {
				if c.Default {
					start = i
				}
			}
		}
		if start < 0 {
			return ctlNone
		}
		for _, c := range s.Cases[start:] {
			r := it.block(c.Body, fr)
			if r == ctlBreak {
				return ctlNone
			}
			if r != ctlNone {
				return r
			}
			if c.Break {
				return ctlNone
			}
		}
	case SBlock:
		return it.block(s.Body, fr)
	case SDecl:
		fr[s.Var] = []uint64{s.Var.T.conv(it.eval(s.E, fr))}
	case SBreak:
		return ctlBreak
	case SContinue:
		return ctlContinue
	case SCopy:
		fr[s.Var] = append([]uint64(nil), fr[s.Src]...)
	case SReturn:
		it.ret = it.eval(s.E, fr)
		return ctlReturn
	}
	return ctlNone
}
