package lower

import (
	"strings"

	"github.com/cilium/ebpf/btf"
	"modernc.org/cc/v4"

	"github.com/bpfcc/bpfcc/bind"
	"github.com/bpfcc/bpfcc/ir"
)

// fnLowerer lowers one function body.
type fnLowerer struct {
	l  *lowerer
	fi *funcInfo
	f  *ir.Func
	b  *ir.Block // current block; nil after a terminator (unreachable code)

	// tailEntry is the body's start, after the parameters are stored,
	// where a return of a call to the function itself jumps back to with
	// tailLocals, the parameters, set (see tailcall.go); nil: no such jump.
	tailEntry  *ir.Block
	tailLocals []*local
	tailUsed   bool

	vars   map[*cc.Declarator]*local
	labels map[string]*ir.Block
	// clock orders declarations and block ends (ir.Slot.Born,
	// ir.Scope.Open/Close).
	clock int
	loops []loopTargets
	// unroll is the loop pragma of the next loop (see loopPragma).
	unroll ir.Unroll
	// expectYes and expectNo are the targets __builtin_expect makes
	// likely and unlikely while its condition is lowered (see cond).
	expectYes, expectNo *ir.Block
	// switches maps a switch statement to its case blocks.
	cases map[*cc.LabeledStatement]*ir.Block
	ret   cc.Type
	// facts records what is known about temporaries' upper bits.
	facts map[ir.Reg]fact
	pos   ir.Pos
	// discard is the call whose result the statement throws away.
	discard *cc.PostfixExpression
	// tracee holds bound handler parameters that point into the traced
	// process: the handler cannot dereference them directly.
	tracee map[*cc.Declarator]string
	// types and enumOps memoise typeOf (see enumtypes.go).
	types   map[cc.ExpressionNode]cc.Type
	enumOps map[cc.ExpressionNode]bool
	// constLocals are the const integer locals with a constant
	// initializer, whose value is a constant wherever they are read.
	constLocals map[*cc.Declarator]int64
	// constPMemo memoises lateConstP.
	constPMemo map[cc.ExpressionNode]bool
	// sret holds, in a function returning a struct or union, the address
	// where the caller wants the result.
	sret ir.Reg
	// scope is the C block being lowered; its objects' slots get it.
	scope *ir.Scope
	// preserve counts the __builtin_preserve_access_index calls being
	// lowered: inside one, every member access is a CO-RE access.
	preserve int
	// layoutOnly > 0 inside __builtin_bpfcc_member_offset/field_info: the
	// member expression is only measured, never loaded.
	layoutOnly int
	// cleanups are the variables with a cleanup attribute in the blocks
	// being lowered, outermost first (see cleanup.go); labelCleanups the
	// cleanups in effect at each label seen, and pendingGotos the jumps to
	// labels not seen yet that leave blocks with cleanups.
	cleanups      []cleanup
	labelCleanups map[string][]cleanup
	pendingGotos  map[string][]pendingGoto
}

type loopTargets struct {
	brk, cont *ir.Block // cont is nil for switch
	// cleanups is the cleanup depth at the loop or switch statement.
	cleanups int
}

// local is a function-scope variable: in a register or in a stack slot.
type local struct {
	reg  ir.Reg
	slot *ir.Slot
	// ptr holds the address of the object when it lives in the caller's
	// memory: a struct parameter passed by value (see byValue).
	ptr ir.Reg
	typ cc.Type
}

// fact says a register's 64 bits are the zero (zext) or sign (sext)
// extension of its low N bits.
type fact struct {
	zext, sext int
}

// lowerFuncs lowers the programs and global functions, then every static
// function they reach. Unused static functions (header inlines with x86 asm,
// say) are never lowered or emitted, as with clang.
func (l *lowerer) lowerFuncs() {
	done := map[*funcInfo]bool{}
	var queue []*funcInfo
	for _, fi := range l.order {
		if fi.f.Section != "" || !fi.f.Static || l.dataFuncRefs[fi.name] != nil {
			queue = append(queue, fi)
			done[fi] = true
		}
	}
	handlers := map[string]*bind.Handler{}
	for i := range l.opts.Handlers {
		handlers[l.opts.Handlers[i].Name] = &l.opts.Handlers[i]
	}
	for len(queue) > 0 {
		fi := queue[0]
		queue = queue[1:]
		if h := handlers[fi.name]; h != nil {
			l.lowerHandler(fi, h)
		} else {
			l.lowerFunc(fi, nil)
		}
		for _, callee := range sortedKeys(fi.calls) {
			if c := l.funcs[callee]; c != nil && !done[c] {
				done[c] = true
				queue = append(queue, c)
			}
		}
	}
	for _, fi := range l.order {
		switch {
		case handlers[fi.name] != nil:
			l.m.Funcs = append(l.m.Funcs, fi.sites...)
		case done[fi]:
			l.m.Funcs = append(l.m.Funcs, fi.f)
		}
	}
}

// lowerHandler emits one program per probe site of a bound handler, plus
// the entry-value helpers its bindings need.
func (l *lowerer) lowerHandler(fi *funcInfo, h *bind.Handler) {
	ft := fi.decl.Type().(*cc.FunctionType)
	if ps := ft.Parameters(); len(ps) < 1 || ps[0].Type().Kind() == cc.Void {
		l.errorf(fi.decl, "handler %q must take the context (struct pt_regs *ctx) as its first parameter", fi.name)
		return
	}
	for i := range h.Sites {
		site := &h.Sites[i]
		f := &ir.Func{Name: site.Name, Section: site.Section, Returns: fi.f.Returns, Pos: fi.f.Pos}
		sfi := &funcInfo{name: fi.name, def: fi.def, decl: fi.decl, f: f, calls: fi.calls, direct: fi.direct}
		ndiag := len(l.diags)
		l.lowerFunc(sfi, site)
		if site.Sleepable && !l.sleepableOK(f) {
			l.diags = l.diags[:ndiag] // lowered again: report once
			// A map type sleepable programs cannot use: read tracee memory
			// with bpf_probe_read_user from a normal uprobe instead.
			site.Sleepable = false
			site.Section = strings.Replace(site.Section, ".s/", "/", 1)
			f = &ir.Func{Name: site.Name, Section: site.Section, Returns: fi.f.Returns, Pos: fi.f.Pos}
			sfi.f = f
			l.lowerFunc(sfi, site)
		}
		f.BTF.Name = site.Name
		// The entry-value helper comes first: it must be attached before
		// the probe that reads what it saves.
		if ef := l.entryHelper(site); ef != nil {
			fi.sites = append(fi.sites, ef)
		}
		fi.sites = append(fi.sites, f)
	}
}

func (l *lowerer) lowerFunc(fi *funcInfo, site *bind.HandlerSite) {
	ft := fi.decl.Type().(*cc.FunctionType)
	fl := &fnLowerer{
		l: l, fi: fi, f: fi.f,
		vars:   map[*cc.Declarator]*local{},
		labels: map[string]*ir.Block{},
		cases:  map[*cc.LabeledStatement]*ir.Block{},
		ret:    ft.Result(),
		facts:  map[ir.Reg]fact{},

		types:   map[cc.ExpressionNode]cc.Type{},
		enumOps: map[cc.ExpressionNode]bool{},
	}
	fi.f.BTF = l.btf.funcBTF(fi.name, ft, fi.f.Static, fi.decl)
	if fi.def != nil {
		fi.f.BTF.Tags = funcTags(fi.def)
	}
	fl.b = fl.f.NewBlock()
	if isAggregate(ft.Result()) {
		fl.sret = fl.f.NewReg()
		fl.f.Params = append(fl.f.Params, fl.sret)
	}
	fl.pos = l.pos(fi.decl)
	params := ft.Parameters()
	if site != nil {
		// A bound handler keeps only ctx; the other parameters are
		// fetched from the traced program's registers and memory.
		fi.f.BTF.Type.(*btf.FuncProto).Params = fi.f.BTF.Type.(*btf.FuncProto).Params[:1]
		if len(fi.f.BTF.ParamTags) > 1 {
			fi.f.BTF.ParamTags = fi.f.BTF.ParamTags[:1]
		}
		params = params[:1]
	}
	// Parameters arrive in registers; aggregates were rejected earlier.
	for _, p := range params {
		r := fl.f.NewReg()
		fl.f.Params = append(fl.f.Params, r)
		d := p.Declarator
		if d == nil || d.Name() == "" {
			continue
		}
		if isAggregate(p.Type()) {
			// The caller passed the address of a copy made for this call:
			// the parameter lives there.
			fl.vars[d] = &local{ptr: r, typ: p.Type()}
			continue
		}
		lv := fl.declareLocal(d, p.Type())
		fl.storeVar(lv, value{op: ir.R(r), t: p.Type()})
	}
	if site != nil {
		fl.bindParams(fl.f.Params[0], ft.Parameters(), site)
	}
	if fi.f.Naked && !fl.nakedBody(fi.def.CompoundStatement) {
		return
	}
	if site == nil && !fi.f.Naked && fl.sret == 0 {
		fl.tailParams(ft, params)
	}
	fl.compound(fi.def.CompoundStatement)
	if fl.b != nil {
		// Falling off the end: main-like implicit return 0 for non-void.
		fl.emitRet(ir.Imm(0))
	}
	fl.dropTailEntry()
	fl.removeUnreachable()
}

// declareLocal creates storage for a local variable.
func (fl *fnLowerer) declareLocal(d *cc.Declarator, t cc.Type) *local {
	lv := &local{typ: t}
	volatile := objectVolatile(d)
	if isScalar(t) && !d.AddressTaken() && !volatile && !hasCleanup(d) {
		lv.reg = fl.f.NewReg()
	} else {
		size := typeSize(t)
		var scalar int64
		if size == 0 {
			size = 1
		}
		// Objects of 8 bytes or more get 8-byte alignment so that copies
		// and initialisation use double-word accesses, as clang does.
		al := max(align(t), d.Alignas())
		if a := d.Type().Attributes(); a != nil {
			al = max(al, int(a.Aligned()))
		}
		if size >= 8 {
			al = max(al, 8)
		} else if isAggregate(t) {
			// Small aggregates too: char s[6] is then set with a 4- and a
			// 2-byte store rather than six byte stores.
			al = max(al, pow2Ceil(int(size)))
		}
		if isScalar(t) && !volatile {
			// A scalar gets an 8-byte stack slot of its own: the verifier
			// tracks a spilled value per 8-byte slot and forgets it when
			// another object's bytes in that slot are written.
			scalar, size, al = size, 8, 8
		}
		// A volatile scalar keeps its C size and alignment, as clang lays
		// it out: a volatile int then sits in the upper half of an 8-byte
		// slot, where the verifier keeps no value for it. That is what
		// "volatile int nr" counters in iterator loops are written for: a
		// tracked constant would make each iteration's state differ and the
		// loop never converge (verifier_bits_iter.c: 1M insns, clang 133).
		lv.slot = fl.newSlot(d.Name(), int(size), al)
		lv.slot.Volatile = volatile
		lv.slot.Scalar = int(scalar)
		fl.clock++
		lv.slot.Born = fl.clock
	}
	fl.vars[d] = lv
	return lv
}

// newSlot allocates a stack object of the current C block.
func (fl *fnLowerer) newSlot(name string, size, align int) *ir.Slot {
	s := fl.f.NewSlot(name, size, align)
	s.Scope = fl.scope
	return s
}

// emit appends an instruction to the current block.
func (fl *fnLowerer) emit(in *ir.Instr) *ir.Instr {
	if fl.b == nil {
		// Unreachable code still gets lowered (for diagnostics) into a
		// detached block.
		fl.b = fl.f.NewBlock()
	}
	if in.Pos == (ir.Pos{}) {
		in.Pos = fl.pos
	}
	if in.Op == ir.OpCallFunc && in.Scope == nil {
		// A point of the call's block: an inlined copy's objects live
		// there, and share memory with the block's objects declared
		// after the call (see ir.EndedBefore).
		fl.clock++
		in.Scope = &ir.Scope{Parent: fl.scope, Open: fl.clock, Close: fl.clock}
	}
	fl.b.Instrs = append(fl.b.Instrs, in)
	return in
}

func (fl *fnLowerer) emitRet(a ir.Operand) {
	fl.emit(&ir.Instr{Op: ir.OpRet, A: a})
	fl.b = nil
}

func (fl *fnLowerer) jump(to *ir.Block) {
	if fl.b != nil {
		fl.emit(&ir.Instr{Op: ir.OpJump, Then: to})
	}
	fl.b = nil
}

// startBlock makes b current, falling through from the current block.
func (fl *fnLowerer) startBlock(b *ir.Block) {
	fl.jump(b)
	fl.b = b
}

// branch emits a conditional branch and leaves no current block.
func (fl *fnLowerer) branch(cond ir.Cond, a, b ir.Operand, w32 bool, then, els *ir.Block) {
	fl.branchLikely(cond, a, b, w32, then, els, ir.LikelyUnknown)
}

// branchLikely is branch with the way clang's static heuristics expect it
// to go; a __builtin_expect around the condition decides instead.
func (fl *fnLowerer) branchLikely(cond ir.Cond, a, b ir.Operand, w32 bool, then, els *ir.Block, likely ir.Likely) {
	switch {
	case fl.expectYes == nil:
	case then == fl.expectYes || els == fl.expectNo:
		likely = ir.LikelyThen
	case els == fl.expectYes || then == fl.expectNo:
		likely = ir.LikelyElse
	}
	fl.emit(&ir.Instr{Op: ir.OpBranch, Cond: cond, A: a, B: b, W32: w32, Then: then, Else: els, Likely: likely})
	fl.b = nil
}

// removeUnreachable drops blocks no path from the entry reaches and
// renumbers the rest.
func (fl *fnLowerer) removeUnreachable() {
	seen := map[*ir.Block]bool{}
	var walk func(b *ir.Block)
	walk = func(b *ir.Block) {
		if b == nil || seen[b] {
			return
		}
		seen[b] = true
		for _, s := range b.Succs() {
			walk(s)
		}
	}
	walk(fl.f.Blocks[0])
	var keep []*ir.Block
	for _, b := range fl.f.Blocks {
		if seen[b] {
			if b.Term() == nil {
				// A reachable block without terminator: a jump into a
				// label at the end of a void function, etc.
				b.Instrs = append(b.Instrs, &ir.Instr{Op: ir.OpRet, A: ir.Imm(0), Pos: fl.pos})
			}
			b.ID = len(keep)
			keep = append(keep, b)
		}
	}
	fl.f.Blocks = keep
}

func (fl *fnLowerer) setPos(n cc.Node) {
	if n != nil {
		if p := fl.l.pos(n); p.Line > 0 {
			fl.pos = p
		}
	}
}

// sleepableMapTypes are the map types the kernel lets sleepable programs
// use (check_map_prog_compatibility).
var sleepableMapTypes = map[uint32]bool{1: true, 2: true, 5: true, 6: true, 9: true, 10: true, 12: true, 13: true,
	27: true, 28: true, 29: true, 31: true, 32: true, 33: true}

// sleepableOK reports whether every map f uses may be used when sleeping.
func (l *lowerer) sleepableOK(f *ir.Func) bool {
	types := map[string]uint32{}
	for _, m := range l.m.Maps {
		for _, mem := range m.BTF.Members {
			if mem.Name == "type" {
				if p, ok := mem.Type.(*btf.Pointer); ok {
					if a, ok := p.Target.(*btf.Array); ok {
						types[m.Name] = a.Nelems
					}
				}
			}
		}
	}
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			if in.Op == ir.OpMapPtr {
				if t, ok := types[in.Sym]; ok && !sleepableMapTypes[t] {
					return false
				}
			}
		}
	}
	return true
}

func pow2Ceil(n int) int {
	p := 1
	for p < n {
		p <<= 1
	}
	return p
}
