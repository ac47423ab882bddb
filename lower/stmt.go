package lower

import (
	"slices"
	"sort"

	"modernc.org/cc/v4"

	"github.com/bpfcc/bpfcc/ir"
)

func (fl *fnLowerer) compound(cs *cc.CompoundStatement) {
	if cs == nil {
		return
	}
	defer fl.enterScope()()
	for list := cs.BlockItemList; list != nil; list = list.BlockItemList {
		bi := list.BlockItem
		if bi == nil {
			continue
		}
		switch bi.Case {
		case cc.BlockItemDecl:
			fl.localDecl(bi.Declaration)
		case cc.BlockItemStmt:
			fl.stmt(bi.Statement)
		case cc.BlockItemFuncDef:
			fl.l.errorf(bi.Declarator, "nested functions are not supported")
		case cc.BlockItemLabel:
			// __label__ declarations: nothing to do.
		}
	}
}

// enterScope opens a C block for the objects declared from now on and
// returns the function that closes it.
func (fl *fnLowerer) enterScope() func() {
	outer := fl.scope
	fl.clock++
	fl.scope = &ir.Scope{Parent: outer, Open: fl.clock}
	n := len(fl.cleanups)
	return func() {
		fl.closeCleanups(n)
		fl.clock++
		fl.scope.Close = fl.clock
		fl.scope = outer
	}
}

func (fl *fnLowerer) localDecl(decl *cc.Declaration) {
	if decl != nil && decl.Case == cc.DeclarationAssert {
		fl.staticAssert(decl.StaticAssertDeclaration)
	}
	if decl != nil && decl.Case == cc.DeclarationAuto && decl.Declarator != nil && decl.Initializer != nil {
		// GNU __auto_type x = e: x has e's type (tetragon's error
		// metrics keep a helper's result so).
		d := decl.Declarator
		fl.setPos(d)
		fl.initLocal(fl.declareLocal(d, d.Type()), decl.Initializer)
		return
	}
	if decl == nil || decl.Case != cc.DeclarationDecl {
		return
	}
	for list := decl.InitDeclaratorList; list != nil; list = list.InitDeclaratorList {
		id := list.InitDeclarator
		d := id.Declarator
		if d == nil || d.IsTypename() || d.Type().Kind() == cc.Function || d.IsSynthetic() || d.Name() == "__func__" {
			continue
		}
		fl.setPos(d)
		if d.IsStatic() || d.IsExtern() {
			fl.l.collectDecl(&cc.Declaration{Case: cc.DeclarationDecl, InitDeclaratorList: &cc.InitDeclaratorList{InitDeclarator: id}}, fl)
			continue
		}
		t := d.Type()
		if at, ok := t.(*cc.ArrayType); ok && at.IsVLA() {
			fl.l.errorf(d, "variable-length array %q: BPF stack objects need a size known at compile time", d.Name())
			continue
		}
		if isFloat(t) || (t.Kind() == cc.Array && isFloat(elemType(t))) {
			fl.l.errorf(d, "floating point is not supported in BPF programs")
			continue
		}
		if hid, ok := helperID(d, id); ok {
			// A local helper pointer, long (*fp)(void) = (void *)7: calls
			// through it call helper 7 (they called helper 0).
			fl.l.helpers[d] = hid
			continue
		}
		lv := fl.declareLocal(d, t)
		if id.Initializer != nil && d.IsConst() && !d.IsVolatile() && cc.IsIntegerType(t) && id.Initializer.Case == cc.InitializerExpr {
			if v, ok := fl.constVal(id.Initializer.AssignmentExpression); ok {
				if fl.constLocals == nil {
					fl.constLocals = map[*cc.Declarator]int64{}
				}
				fl.constLocals[d] = v
			}
		}
		if id.Initializer != nil {
			fl.initLocal(lv, id.Initializer)
		}
		fl.addCleanup(decl, id, lv)
	}
}

func (fl *fnLowerer) stmt(s *cc.Statement) {
	if s == nil {
		return
	}
	switch s.Case {
	case cc.StatementLabeled:
		fl.labeled(s.LabeledStatement)
	case cc.StatementCompound:
		fl.compound(s.CompoundStatement)
	case cc.StatementExpr:
		if s.ExpressionStatement.ExpressionList != nil {
			fl.setPos(s.ExpressionStatement.ExpressionList)
			fl.exprVoid(s.ExpressionStatement.ExpressionList)
		}
	case cc.StatementSelection:
		fl.selection(s.SelectionStatement)
	case cc.StatementIteration:
		fl.iteration(s.IterationStatement)
	case cc.StatementJump:
		fl.jumpStmt(s.JumpStatement)
	case cc.StatementAsm:
		fl.asmStmt(s.AsmStatement)
	}
}

func (fl *fnLowerer) labelBlock(name string) *ir.Block {
	b, ok := fl.labels[name]
	if !ok {
		b = fl.f.NewBlock()
		fl.labels[name] = b
	}
	return b
}

func (fl *fnLowerer) labeled(ls *cc.LabeledStatement) {
	switch ls.Case {
	case cc.LabeledStatementLabel:
		if n, ok := fl.l.u.LoopUnroll(ls.Token.SrcStr()); ok {
			fl.unroll = loopPragma(n)
			fl.stmt(ls.Statement)
			fl.unroll = 0
			return
		}
		fl.reachLabel(ls, ls.Token.SrcStr())
		fl.startBlock(fl.labelBlock(ls.Token.SrcStr()))
	case cc.LabeledStatementCaseLabel, cc.LabeledStatementDefault, cc.LabeledStatementRange:
		b := fl.cases[ls]
		if b == nil {
			fl.l.errorf(ls, "case label outside a switch")
			b = fl.f.NewBlock()
		}
		fl.startBlock(b)
	}
	fl.stmt(ls.Statement)
}

func (fl *fnLowerer) jumpStmt(js *cc.JumpStatement) {
	fl.setPos(js)
	switch js.Case {
	case cc.JumpStatementGoto:
		fl.gotoLabel(js, js.Token2.SrcStr())
	case cc.JumpStatementGotoExpr:
		fl.l.errorf(js, "computed goto is not supported in BPF")
	case cc.JumpStatementContinue:
		for i := len(fl.loops) - 1; i >= 0; i-- {
			if fl.loops[i].cont != nil {
				fl.runCleanups(fl.loops[i].cleanups)
				fl.jump(fl.loops[i].cont)
				return
			}
		}
		fl.l.errorf(js, "continue outside a loop")
	case cc.JumpStatementBreak:
		if len(fl.loops) == 0 {
			fl.l.errorf(js, "break outside a loop or switch")
			return
		}
		loop := fl.loops[len(fl.loops)-1]
		fl.runCleanups(loop.cleanups)
		fl.jump(loop.brk)
	case cc.JumpStatementReturn:
		fl.returnStmt(js)
	}
}

// returnStmt computes the result, runs the cleanups of every block and
// returns.
func (fl *fnLowerer) returnStmt(js *cc.JumpStatement) {
	ret := func(a ir.Operand) {
		fl.runCleanups(0)
		fl.emitRet(a)
	}
	switch {
	case js.ExpressionList == nil:
		if fl.ret.Kind() != cc.Void && !fl.l.opts.C89 {
			// clang 16 and later refuse it too (-Wreturn-mismatch):
			// the caller would read whatever r0 holds.
			fl.l.errorf(js, "non-void function '%s' should return a value", fl.f.Name)
		}
		ret(ir.Imm(0))
	case fl.ret.Kind() == cc.Void:
		if t := js.ExpressionList.Type(); t != nil && t.Kind() != cc.Void {
			fl.l.errorf(js, "void function '%s' should not return a value", fl.f.Name)
		}
		fl.exprVoid(js.ExpressionList)
		ret(ir.Imm(0))
	case isAggregate(fl.ret):
		// Copy the result to where the caller asked for it.
		v := fl.rvalue(js.ExpressionList)
		fl.copyMem(lvalue{t: fl.ret, base: fl.sret, align: align(fl.ret)}, v)
		ret(ir.Imm(0))
	case fl.returnTail(js.ExpressionList):
	default:
		fl.checkIntPointer(js.ExpressionList, fl.ret, returning)
		v := fl.convert(fl.rvalue(js.ExpressionList), fl.ret)
		if len(fl.cleanups) > 0 && !v.op.IsImm {
			// The cleanups may change what v was read from.
			v = value{op: ir.R(fl.toReg(v)), t: v.t}
		}
		ret(v.op)
	}
}

func (fl *fnLowerer) selection(ss *cc.SelectionStatement) {
	fl.setPos(ss)
	switch ss.Case {
	case cc.SelectionStatementIf, cc.SelectionStatementIfElse:
		then, join := fl.f.NewBlock(), fl.f.NewBlock()
		els := join
		if ss.Case == cc.SelectionStatementIfElse {
			els = fl.f.NewBlock()
		}
		fl.cond(ss.ExpressionList, then, els)
		fl.b = then
		fl.stmt(ss.Statement)
		fl.jump(join)
		if ss.Case == cc.SelectionStatementIfElse {
			fl.b = els
			fl.stmt(ss.Statement2)
			fl.jump(join)
		}
		fl.b = join
	case cc.SelectionStatementSwitch:
		fl.switchStmt(ss)
	}
}

type caseVal struct {
	lo, hi int64
	b      *ir.Block
	// root is the outermost of a chain of case labels this one is in.
	root *cc.LabeledStatement
}

func (fl *fnLowerer) switchStmt(ss *cc.SelectionStatement) {
	ct := cc.IntegerPromotion(ss.ExpressionList.Type())
	v := fl.convert(fl.rvalue(ss.ExpressionList), ct)
	x := fl.toReg(v)
	brk := fl.f.NewBlock()
	def := brk
	var cases []caseVal
	// A label that labels another (`case 6: case 17: ...`) shares its
	// target: dispatching to the outer one's block, which only falls
	// through, lets the cases of one body be tested together (bitTests).
	outer := map[*cc.LabeledStatement]*cc.LabeledStatement{}
	for _, ls := range ss.LabeledStatements() {
		if st := ls.Statement; ls.Switch() == ss && st != nil && st.Case == cc.StatementLabeled && st.LabeledStatement.Switch() == ss {
			outer[st.LabeledStatement] = ls
		}
	}
	for _, ls := range ss.LabeledStatements() {
		if ls.Switch() != ss {
			continue
		}
		b := fl.f.NewBlock()
		fl.cases[ls] = b
		switch ls.Case {
		case cc.LabeledStatementDefault:
			def = b
		case cc.LabeledStatementCaseLabel:
			c := truncate(fl.constInt(ls.ConstantExpression), ct)
			root := ls
			for i := 0; outer[root] != nil && i < 1000; i++ {
				root = outer[root]
			}
			cases = append(cases, caseVal{c, c, b, root})
		case cc.LabeledStatementRange:
			lo := truncate(fl.constInt(ls.ConstantExpression), ct)
			hi := truncate(fl.constInt(ls.ConstantExpression2), ct)
			cases = append(cases, caseVal{lo, hi, b, nil})
		}
	}
	for i := range cases {
		if r := cases[i].root; r != nil {
			cases[i].b = fl.cases[r]
		}
	}
	w32 := scalarSize(ct) <= 4
	signed := isSigned(ct)
	sort.SliceStable(cases, func(i, j int) bool {
		if signed {
			return cases[i].lo < cases[j].lo
		}
		return uint64(cases[i].lo) < uint64(cases[j].lo)
	})
	cases = fl.identityRuns(x, ct, cases, w32)
	cases = fl.bitTests(x, cases, w32)
	fl.dispatch(x, cases, def, w32, signed)
	fl.loops = append(fl.loops, loopTargets{brk: brk, cleanups: len(fl.cleanups)})
	fl.b = nil
	fl.stmt(ss.Statement)
	fl.loops = fl.loops[:len(fl.loops)-1]
	fl.jump(brk)
	fl.b = brk
}

// minIdentityRun is how many consecutive cases returning their own value
// identityRuns tests at once.
const minIdentityRun = 3

// identityRuns returns x itself for each run of consecutive cases that
// return their own value (`case PR_X: return PPM_PR_X;` with equal values:
// falco's *_to_scap helpers), after one range test, `x - lo <= hi - lo`, as
// clang's switch simplification makes it, and returns the other cases. As
// equality tests, each case reached the join with x a constant of its own,
// and the verifier walked what follows once per case when a later compare
// made them precise (falco's prctl_x: 7x clang's verified instructions).
func (fl *fnLowerer) identityRuns(x ir.Reg, ct cc.Type, cases []caseVal, w32 bool) []caseVal {
	if fl.ret == nil || !cc.IsIntegerType(fl.ret) || fl.ret.Kind() == cc.Bool || len(cases) < minIdentityRun {
		return cases
	}
	identity := func(c caseVal) bool {
		if c.lo != c.hi || c.root == nil || c.root.Statement == nil {
			return false
		}
		st := c.root.Statement
		if st.Case != cc.StatementJump || st.JumpStatement.Case != cc.JumpStatementReturn || st.JumpStatement.ExpressionList == nil {
			return false
		}
		v, ok := constValue(st.JumpStatement.ExpressionList)
		if !ok {
			return false
		}
		// The value returned for x == lo is x converted to the result
		// type: the constant must be that.
		return truncate(v, fl.ret) == truncate(c.lo, fl.ret) && truncate(c.lo, fl.ret) == c.lo
	}
	var rest []caseVal
	for i := 0; i < len(cases); {
		j := i
		for j < len(cases) && identity(cases[j]) && (j == i || cases[j].lo == cases[j-1].lo+1) {
			j++
		}
		if j-i < minIdentityRun {
			if j == i {
				j = i + 1
			}
			rest = append(rest, cases[i:j]...)
			i = j
			continue
		}
		lo, hi := cases[i].lo, cases[j-1].lo
		t := fl.tmp()
		fl.emit(&ir.Instr{Op: ir.OpALU, ALU: ir.Sub, Dst: t, A: ir.R(x), B: ir.Imm(lo), W32: w32})
		in, next := fl.f.NewBlock(), fl.f.NewBlock()
		fl.branch(ir.Ugt, ir.R(t), ir.Imm(hi-lo), w32, next, in)
		fl.b = in
		v := fl.convert(value{op: ir.R(x), t: ct}, fl.ret)
		fl.runCleanups(0)
		fl.emitRet(v.op)
		fl.b = next
		i = j
	}
	return rest
}

// minBitTestCases is how many values of one target within 64 of each
// other bitTests tests at once, as LLVM's switch lowering does.
const minBitTestCases = 3

// bitTests tests the values of each target that has at least
// minBitTestCases of them within 64 of each other at once, `(1 << (x -
// min)) & mask`, as clang does, and returns the other cases. Besides the
// instructions, the verifier needs it: a chain of equality tests sends x
// into the shared body as a different constant on each edge, and the
// verifier walks the body once for each (selftests/net's nat6to4 with
// `case IPPROTO_TCP: case IPPROTO_UDP: ...`: 1.9x clang's verified
// instructions).
func (fl *fnLowerer) bitTests(x ir.Reg, cases []caseVal, w32 bool) []caseVal {
	byTarget := map[*ir.Block][]int64{}
	var order []*ir.Block
	for _, c := range cases {
		if c.lo != c.hi {
			continue
		}
		if _, ok := byTarget[c.b]; !ok {
			order = append(order, c.b)
		}
		byTarget[c.b] = append(byTarget[c.b], c.lo)
	}
	tested := map[*ir.Block]bool{}
	for _, b := range order {
		vals := byTarget[b] // sorted, as cases are
		lo, hi := vals[0], vals[len(vals)-1]
		if len(vals) < minBitTestCases || uint64(hi-lo) >= 64 || w32 && (lo < -1<<31 || hi > 1<<32-1) {
			continue
		}
		var mask uint64
		for _, v := range vals {
			mask |= 1 << uint64(v-lo)
		}
		t := fl.tmp()
		fl.emit(&ir.Instr{Op: ir.OpALU, ALU: ir.Sub, Dst: t, A: ir.R(x), B: ir.Imm(lo), W32: w32})
		inRange, next := fl.f.NewBlock(), fl.f.NewBlock()
		fl.branch(ir.Ugt, ir.R(t), ir.Imm(hi-lo), w32, next, inRange)
		fl.b = inRange
		bit := fl.tmp()
		fl.emit(&ir.Instr{Op: ir.OpMov, Dst: bit, A: ir.Imm(1)})
		fl.emit(&ir.Instr{Op: ir.OpALU, ALU: ir.Lsh, Dst: bit, A: ir.R(bit), B: ir.R(t)})
		m := ir.Imm(int64(mask))
		if mask > 1<<31-1 {
			m = ir.R(fl.toReg(value{op: m}))
		}
		fl.branch(ir.Set, ir.R(bit), m, false, b, next)
		fl.b = next
		tested[b] = true
	}
	if len(tested) == 0 {
		return cases
	}
	rest := cases[:0:0]
	for _, c := range cases {
		if c.lo != c.hi || !tested[c.b] {
			rest = append(rest, c)
		}
	}
	return rest
}

// dispatch emits a binary search over sorted cases (a compare chain for few).
func (fl *fnLowerer) dispatch(x ir.Reg, cases []caseVal, def *ir.Block, w32, signed bool) {
	lt, ge, gt := ir.Ult, ir.Uge, ir.Ugt
	if signed {
		lt, ge, gt = ir.Slt, ir.Sge, ir.Sgt
	}
	if len(cases) <= 4 {
		for _, c := range cases {
			next := fl.f.NewBlock()
			if c.lo == c.hi {
				fl.branch(ir.Eq, ir.R(x), ir.Imm(c.lo), w32, c.b, next)
			} else {
				mid := fl.f.NewBlock()
				fl.branch(lt, ir.R(x), ir.Imm(c.lo), w32, next, mid)
				fl.b = mid
				fl.branch(gt, ir.R(x), ir.Imm(c.hi), w32, next, c.b)
			}
			fl.b = next
		}
		fl.jump(def)
		return
	}
	half := len(cases) / 2
	left, right := fl.f.NewBlock(), fl.f.NewBlock()
	fl.branch(ge, ir.R(x), ir.Imm(cases[half].lo), w32, right, left)
	fl.b = left
	fl.dispatch(x, cases[:half], def, w32, signed)
	fl.b = right
	fl.dispatch(x, cases[half:], def, w32, signed)
}

func (fl *fnLowerer) iteration(is *cc.IterationStatement) {
	fl.setPos(is)
	unroll := fl.unroll
	fl.unroll = 0
	head, body, cont, brk := fl.f.NewBlock(), fl.f.NewBlock(), fl.f.NewBlock(), fl.f.NewBlock()
	if is.Case == cc.IterationStatementDo {
		head = body
	}
	defer fl.markBackEdges(head, unroll)
	switch is.Case {
	case cc.IterationStatementWhile:
		fl.startBlock(head)
		fl.cond(is.ExpressionList, body, brk)
		fl.b = body
		fl.loopBody(is.Statement, brk, cont)
		fl.startBlock(cont)
		fl.jump(head)
	case cc.IterationStatementDo:
		fl.startBlock(body)
		fl.loopBody(is.Statement, brk, cont)
		fl.startBlock(cont)
		fl.cond(is.ExpressionList, body, brk)
	case cc.IterationStatementFor, cc.IterationStatementForDecl:
		// for (init; cond; post): with a declaration, cc's ExpressionList
		// is the condition and ExpressionList2 the post expression. The
		// declaration has a block of its own around the loop.
		defer fl.enterScope()()
		cond, post := is.ExpressionList2, is.ExpressionList3
		if is.Case == cc.IterationStatementForDecl {
			fl.localDecl(is.Declaration)
			cond, post = is.ExpressionList, is.ExpressionList2
		} else if is.ExpressionList != nil {
			fl.exprVoid(is.ExpressionList)
		}
		fl.startBlock(head)
		if cond != nil {
			fl.cond(cond, body, brk)
		} else {
			fl.jump(body)
		}
		fl.b = body
		fl.loopBody(is.Statement, brk, cont)
		fl.startBlock(cont)
		if post != nil {
			fl.exprVoid(post)
		}
		fl.jump(head)
	}
	fl.b = brk
}

// loopPragma converts frontend.Unit.LoopUnroll's answer.
func loopPragma(n int) ir.Unroll {
	switch {
	case n < 0:
		return ir.UnrollNever
	case n == 0:
		return ir.UnrollFull
	}
	return ir.Unroll(n)
}

// markBackEdges puts a loop's pragma on the jumps back to its head: the
// jumps from the loop's own blocks, made after the head.
func (fl *fnLowerer) markBackEdges(head *ir.Block, u ir.Unroll) {
	if u == 0 {
		return
	}
	at := slices.Index(fl.f.Blocks, head)
	if at < 0 {
		return
	}
	for _, b := range fl.f.Blocks[at:] {
		if t := b.Term(); t != nil && (t.Then == head || t.Else == head) && t.Op != ir.OpRet {
			t.Unroll = u
		}
	}
}

func (fl *fnLowerer) loopBody(s *cc.Statement, brk, cont *ir.Block) {
	fl.loops = append(fl.loops, loopTargets{brk: brk, cont: cont, cleanups: len(fl.cleanups)})
	fl.stmt(s)
	fl.loops = fl.loops[:len(fl.loops)-1]
}

func (fl *fnLowerer) constInt(e cc.ExpressionNode) int64 {
	if e == nil {
		return 0
	}
	switch v := e.Value().(type) {
	case cc.Int64Value:
		return int64(v)
	case cc.UInt64Value:
		return int64(v)
	}
	fl.l.errorf(e, "expression is not an integer constant")
	return 0
}
