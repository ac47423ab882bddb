package randgen

import (
	"fmt"
	"math/rand"
	"slices"
)

// Program is one generated program.
type Program struct {
	Seed    int64
	Structs []*StructType
	Funcs   []*Func // helpers, in definition order
	Main    *Func
	In      *Var // __u64 in[8], loaded from the packet after the Ethernet header
	Len     *Var // volatile __u32 len = skb->len
	SkbLen  *Var // skb->len itself
	Outs    []*Expr
	// Packet is the input packet (Ethernet header included).
	Packet []byte
	// SignedDiv reports signed / or %, which clang only compiles at -mcpu=v4.
	SignedDiv bool
	safeUsed  map[string]bool
}

type gen struct {
	r        *rand.Rand
	p        *Program
	safe     bool
	scope    []*Var
	callable []*Func
	calls    int // calls left in the current statement
	loops    int // enclosing loops
	depth    int // statement nesting
	names    int
	live     frame // main's state before the statement being generated
	inMain   bool
	opts     Options
	types    []Type
}

// Options select features; the zero value enables everything.
type Options struct {
	// NoUnsignedEnum leaves out enum E1, whose enumerators are all
	// non-negative (so its type is unsigned int with GCC and clang).
	NoUnsignedEnum bool
	// NoBitFieldDivAssign leaves out /= and %= on bit-fields.
	NoBitFieldDivAssign bool
}

// Generate returns the program for seed.
func Generate(seed int64, opts Options) *Program {
	g := &gen{r: rand.New(rand.NewSource(seed)), p: &Program{Seed: seed, safeUsed: map[string]bool{}}, opts: opts}
	g.types = scalarTypes
	if opts.NoUnsignedEnum {
		g.types = slices.DeleteFunc(slices.Clone(scalarTypes), func(t Type) bool { return t == tEnumU })
	}
	return g.program()
}

func (g *gen) name(prefix string) string {
	g.names++
	return fmt.Sprintf("%s%d", prefix, g.names)
}

func (g *gen) chance(p float64) bool { return g.r.Float64() < p }

func pick[T any](g *gen, xs []T) T { return xs[g.r.Intn(len(xs))] }

func (g *gen) program() *Program {
	p := g.p
	p.Packet = g.packet()
	// Structs.
	for i := range 1 + g.r.Intn(2) {
		st := &StructType{Name: fmt.Sprintf("S%d", i)}
		for j := range 2 + g.r.Intn(5) {
			f := &Field{Name: fmt.Sprintf("f%d", j), Idx: j}
			if g.chance(0.5) {
				f.Base = pick(g, []Type{tInt, tUInt, tUInt})
				if f.Base.Signed {
					f.Width = 1 + g.r.Intn(31)
				} else {
					f.Width = 1 + g.r.Intn(32)
				}
			} else {
				f.Base = g.scalarType()
			}
			st.Fields = append(st.Fields, f)
		}
		p.Structs = append(p.Structs, st)
	}
	// Helpers.
	for range g.r.Intn(5) {
		f := g.function()
		p.Funcs = append(p.Funcs, f)
		g.callable = append(g.callable, f)
	}
	// Main.
	g.inMain = true
	m := &Func{Name: "prog", Main: true}
	p.Main = m
	p.In = &Var{Name: "in", Kind: Array, T: tU64, N: 8, ReadOnly: true}
	p.Len = &Var{Name: "len", Kind: Scalar, T: tU32, Volatile: true, ReadOnly: true}
	p.SkbLen = &Var{Name: "skb->len", Kind: Scalar, T: tU32, ReadOnly: true}
	g.scope = []*Var{p.In, p.Len, p.SkbLen}
	g.live = p.inputs()
	nScalars := 4 + g.r.Intn(8)
	nArrays := g.r.Intn(3)
	nStructs := g.r.Intn(3)
	kinds := []VarKind{}
	for range nScalars {
		kinds = append(kinds, Scalar)
	}
	for range nArrays {
		kinds = append(kinds, Array)
	}
	for range nStructs {
		kinds = append(kinds, Struct)
	}
	g.r.Shuffle(len(kinds), func(i, j int) { kinds[i], kinds[j] = kinds[j], kinds[i] })
	for _, k := range kinds {
		m.Decls = append(m.Decls, g.liveDecl(k))
	}
	for range 6 + g.r.Intn(14) {
		m.Body = append(m.Body, g.liveStmt())
	}
	for _, d := range m.Decls {
		v := d.Var
		switch v.Kind {
		case Scalar:
			p.Outs = append(p.Outs, &Expr{Op: OpVar, Var: v, T: v.T})
		case Array:
			for i := range v.N {
				p.Outs = append(p.Outs, &Expr{Op: OpIndex, Var: v, T: v.T, Args: []*Expr{cInt(uint64(i))}})
			}
		case Struct:
			for _, f := range v.S.Fields {
				p.Outs = append(p.Outs, &Expr{Op: OpField, Var: v, Field: f, T: f.Type()})
			}
		}
	}
	return p
}

// inputs is main's frame before its declarations.
func (p *Program) inputs() frame {
	fr := frame{}
	in := make([]uint64, 8)
	for i := range in {
		for j := range 8 {
			in[i] |= uint64(p.Packet[14+8*i+j]) << (8 * j)
		}
	}
	fr[p.In] = in
	l := uint64(len(p.Packet) - 14) // test runs of socket filters pull the Ethernet header
	fr[p.Len] = []uint64{l}
	fr[p.SkbLen] = []uint64{l}
	return fr
}

// Expected runs the program in the model and returns the values it stores.
func (p *Program) Expected() (vals []uint64, err error) {
	defer func() {
		if r := recover(); r != nil {
			if u, ok := r.(UB); ok {
				err = u
				return
			}
			panic(r)
		}
	}()
	it := &interp{}
	fr := p.inputs()
	it.decls(p.Main.Decls, fr)
	if it.block(p.Main.Body, fr) != ctlNone {
		return nil, fmt.Errorf("main's body did not fall through")
	}
	for _, e := range p.Outs {
		vals = append(vals, tU64.conv(it.eval(e, fr)))
	}
	return vals, nil
}

func (g *gen) packet() []byte {
	n := 14 + 64 + g.r.Intn(40)
	b := make([]byte, n)
	for i := range b {
		switch g.r.Intn(6) {
		case 0:
			b[i] = 0
		case 1:
			b[i] = 0xff
		case 2:
			b[i] = byte(g.r.Intn(8))
		default:
			b[i] = byte(g.r.Intn(256))
		}
	}
	b[12], b[13] = 0x08, 0x00
	return b
}

func (g *gen) stmt() *Stmt {
	g.calls = 2
	ws := g.writable()
	nested := g.depth < 2
	for {
		switch n := g.r.Intn(100); {
		case n < 50:
			if len(ws) == 0 {
				continue
			}
			v := pick(g, ws)
			c := g.exprCtx(2, v)
			lv := g.lvalueOf(v, c, false)
			if g.chance(0.1) {
				return &Stmt{Kind: SExpr, E: g.incdec(lv, c, 1)}
			}
			return &Stmt{Kind: SExpr, E: g.assign(lv, c, g.exprDepth())}
		case n < 64:
			if !nested {
				continue
			}
			c := g.exprCtx(1, nil)
			s := &Stmt{Kind: SIf, E: g.expr(c, g.exprDepth())}
			s.Body = g.block(1 + g.r.Intn(3))
			if g.chance(0.6) {
				s.Else = g.block(1 + g.r.Intn(3))
			}
			return s
		case n < 74:
			if !nested || g.loops >= 2 {
				continue
			}
			iv := &Var{Name: g.name("i"), Kind: Scalar, T: tInt, ReadOnly: true}
			s := &Stmt{Kind: SFor, Var: iv, N: 1 + g.r.Intn(4)}
			g.scope = append(g.scope, iv)
			g.loops++
			s.Body = g.block(1 + g.r.Intn(3))
			if g.chance(0.4) {
				k := SBreak
				if g.chance(0.5) {
					k = SContinue
				}
				c := g.exprCtx(0, nil)
				br := &Stmt{Kind: SIf, E: g.expr(c, 2), Body: []*Stmt{{Kind: k}}}
				at := g.r.Intn(len(s.Body) + 1)
				s.Body = slices.Insert(s.Body, at, br)
			}
			g.loops--
			g.scope = g.scope[:len(g.scope)-1]
			return s
		case n < 82:
			if !nested {
				continue
			}
			return g.switchStmt()
		case n < 92:
			if !nested {
				continue
			}
			t := g.scalarType()
			v := &Var{Name: g.name("t"), Kind: Scalar, T: t, Volatile: g.chance(0.2)}
			d := &Stmt{Kind: SDecl, Var: v, E: g.expr(&ectx{reads: g.scope}, 2)}
			g.scope = append(g.scope, v)
			body := append([]*Stmt{d}, g.block(1+g.r.Intn(3))...)
			g.scope = g.scope[:len(g.scope)-1]
			return &Stmt{Kind: SBlock, Body: body}
		case n < 96:
			var ss []*Var
			for _, v := range ws {
				if v.Kind == Struct {
					ss = append(ss, v)
				}
			}
			if len(ss) < 2 {
				continue
			}
			a, b := pick(g, ss), pick(g, ss)
			if a == b || a.S != b.S {
				continue
			}
			return &Stmt{Kind: SCopy, Var: a, Src: b}
		default:
			if len(ws) == 0 {
				continue
			}
			v := pick(g, ws)
			c := g.exprCtx(2, v)
			lv := g.lvalueOf(v, c, false)
			return &Stmt{Kind: SExpr, E: g.incdec(lv, c, 1)}
		}
	}
}

func (g *gen) block(n int) []*Stmt {
	g.depth++
	defer func() { g.depth-- }()
	var ss []*Stmt
	for range n {
		ss = append(ss, g.stmt())
	}
	return ss
}

func (g *gen) switchStmt() *Stmt {
	c := g.exprCtx(0, nil)
	e := g.expr(c, g.exprDepth())
	pt := promote(e.T)
	var vals []uint64
	if g.live != nil && g.depth == 0 && g.chance(0.7) {
		if v, ok := tryEval(e, g.live.clone()); ok {
			vals = append(vals, pt.conv(v))
		}
	}
	s := &Stmt{Kind: SSwitch, E: e}
	n := 1 + g.r.Intn(4)
	for len(vals) < n {
		var v uint64
		if g.chance(0.7) {
			v = pt.conv(uint64(g.r.Intn(12) - 4))
		} else {
			v = pt.conv(g.constant().V)
		}
		if !slices.Contains(vals, v) {
			vals = append(vals, v)
		}
	}
	g.r.Shuffle(len(vals), func(i, j int) { vals[i], vals[j] = vals[j], vals[i] })
	for _, v := range vals {
		s.Cases = append(s.Cases, &Case{Val: v, Body: g.block(g.r.Intn(3)), Break: g.chance(0.7)})
	}
	if g.chance(0.6) {
		at := g.r.Intn(len(s.Cases) + 1)
		s.Cases = slices.Insert(s.Cases, at, &Case{Default: true, Body: g.block(g.r.Intn(3)), Break: g.chance(0.7)})
	}
	s.Cases[len(s.Cases)-1].Break = true // a label needs a statement after it
	return s
}

func tryEval(e *Expr, fr frame) (v uint64, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			if _, isUB := r.(UB); !isUB {
				panic(r)
			}
			ok = false
		}
	}()
	return (&interp{}).eval(e, fr), true
}

func tryExec(f func()) (ok bool) {
	defer func() {
		if r := recover(); r != nil {
			if _, isUB := r.(UB); !isUB {
				panic(r)
			}
			ok = false
		}
	}()
	f()
	return true
}

// liveStmt generates one of main's top-level statements: raw operators
// where the model shows they are defined, the safe forms otherwise.
func (g *gen) liveStmt() *Stmt {
	defer func() { g.safe = false }()
	for try := range 10 {
		g.safe = try >= 6
		s := g.stmt()
		fr := g.live.clone()
		it := &interp{seen: map[*Expr]bool{}}
		if tryExec(func() { it.stmt(s, fr) }) && (g.safe || allRiskySeen(s, it.seen)) {
			g.live = fr
			return s
		}
	}
	panic("randgen: safe statement has undefined behaviour")
}

func (g *gen) initOf(v *Var) Init {
	c := &ectx{reads: g.scope}
	e := func() *Expr {
		switch g.r.Intn(5) {
		case 0:
			return g.constant()
		case 1:
			k := &Expr{Op: OpIndex, Var: g.p.In, T: tU64, Args: []*Expr{cInt(uint64(g.r.Intn(8)))}}
			if g.chance(0.5) {
				return binary("^", k, g.constant())
			}
			return binary(">>", k, cInt(uint64(g.r.Intn(64))))
		case 2:
			return g.arithBin(pick(g, []string{"+", "*", "^", "-"}), g.read(g.p.Len, c), g.constant())
		}
		return g.expr(c, 1+g.r.Intn(3))
	}
	var in Init
	switch v.Kind {
	case Scalar:
		in.Elems = []*Expr{e()}
	case Array:
		for range g.r.Intn(v.N + 1) {
			in.Elems = append(in.Elems, e())
		}
	case Struct:
		in.Fields = make([]*Expr, len(v.S.Fields))
		for i := range in.Fields {
			if g.chance(0.7) {
				in.Fields[i] = e()
			}
		}
	}
	return in
}

func (g *gen) newVar(k VarKind, prefix string) *Var {
	v := &Var{Name: g.name(prefix), Kind: k}
	switch k {
	case Scalar:
		v.T = g.scalarType()
		v.Volatile = g.chance(0.3)
	case Array:
		v.T = g.scalarType()
		v.N = pick(g, []int{2, 4, 4})
	case Struct:
		v.S = pick(g, g.p.Structs)
	}
	return v
}

func (g *gen) liveDecl(k VarKind) *Decl {
	v := g.newVar(k, "v")
	defer func() { g.safe = false }()
	for try := range 10 {
		g.safe = try >= 6
		in := g.initOf(v)
		fr := g.live.clone()
		if tryExec(func() { (&interp{}).initVar(v, in, fr) }) {
			g.live = fr
			g.scope = append(g.scope, v)
			return &Decl{Var: v, Init: in}
		}
	}
	panic("randgen: safe initialiser has undefined behaviour")
}

// function generates a helper in safe mode: its arguments are unknown.
func (g *gen) function() *Func {
	g.safe = true
	defer func() { g.safe = false }()
	f := &Func{Name: g.name("f"), Ret: g.scalarType(), NoInline: g.chance(0.75)}
	g.scope = nil
	for range 1 + g.r.Intn(5) {
		p := &Var{Name: g.name("p"), Kind: Scalar, T: g.scalarType()}
		f.Params = append(f.Params, p)
		g.scope = append(g.scope, p)
	}
	for range g.r.Intn(3) {
		v := g.newVar(Scalar, "l")
		if g.chance(0.2) {
			v = g.newVar(Array, "l")
		}
		f.Decls = append(f.Decls, &Decl{Var: v, Init: g.initOfLocal(v)})
		g.scope = append(g.scope, v)
	}
	for range 1 + g.r.Intn(4) {
		f.Body = append(f.Body, g.stmt())
	}
	g.calls = 2
	f.Body = append(f.Body, &Stmt{Kind: SReturn, E: g.expr(&ectx{reads: g.scope}, g.exprDepth())})
	g.scope = nil
	return f
}

func (g *gen) initOfLocal(v *Var) Init {
	c := &ectx{reads: g.scope}
	var in Init
	n := 1
	if v.Kind == Array {
		n = g.r.Intn(v.N + 1)
	}
	for range n {
		in.Elems = append(in.Elems, g.expr(c, 2))
	}
	return in
}

// risky reports whether e is an operator whose raw form can have undefined
// behaviour. Raw risky operators that never run are not checked by the
// model, and a compiler may prove them undefined and treat their path as
// unreachable (clang then emits code the verifier rejects), so live
// statements keep them only when every one of them ran.
func risky(e *Expr) bool {
	switch e.Op {
	case OpBinary:
		switch e.Sub {
		case "+", "-", "*":
			return e.T.Signed
		case "/", "%", "<<", ">>":
			return true
		}
	case OpUnary:
		return e.Sub == "-" && e.T.Signed
	case OpAssign:
		return e.Sub != "=" && e.Sub != "&=" && e.Sub != "|=" && e.Sub != "^="
	case OpIncDec:
		return true
	}
	return false
}

func allRiskySeen(s *Stmt, seen map[*Expr]bool) bool {
	ok := true
	var expr func(e *Expr)
	expr = func(e *Expr) {
		if e == nil || !ok {
			return
		}
		if risky(e) && !seen[e] {
			ok = false
			return
		}
		for _, a := range e.Args {
			expr(a)
		}
	}
	var stmt func(s *Stmt)
	stmt = func(s *Stmt) {
		expr(s.E)
		for _, b := range [][]*Stmt{s.Body, s.Else} {
			for _, x := range b {
				stmt(x)
			}
		}
		for _, c := range s.Cases {
			for _, x := range c.Body {
				stmt(x)
			}
		}
	}
	stmt(s)
	return ok
}
