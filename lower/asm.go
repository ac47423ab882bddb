package lower

import (
	"encoding/binary"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/cilium/ebpf/asm"
	"modernc.org/cc/v4"

	"github.com/bpfcc/bpfcc/bpfasm"
	"github.com/bpfcc/bpfcc/ir"
)

// asmOperand is one operand of an asm statement, as written.
type asmOperand struct {
	name       string
	constraint string // without the =, +, & modifiers
	output     bool
	inout      bool // "+r": read and written
	// tied is the output operand a matching-constraint input ("0") shares
	// its register with, or -1.
	tied int
	// mem is an "m" input: its address goes in the register.
	mem bool
	// spillOf, on an operand bpfcc adds, is 1 + the index of an output
	// after the first: the operand holds the address of a stack slot the
	// code's end stores that output's register to (an asm instruction has
	// one result register in the IR).
	spillOf int
	// spilled marks an output that leaves through such a slot.
	spilled bool
	// memOut marks an "=m" or "+m" output: a memory operand the code
	// may write.
	memOut bool
	expr   cc.ExpressionNode
	node   cc.Node
}

// asmStmt lowers an asm statement: its text is assembled by bpfasm with
// "r" operands bound to registers the text does not use, and the result is
// one OpAsm that codegen emits as it is.
func (fl *fnLowerer) asmStmt(a *cc.AsmStatement) {
	if a == nil || a.Asm == nil {
		return
	}
	x := a.Asm
	fl.setPos(a)
	text, err := cString(x.Token3.SrcStr())
	if err != nil {
		fl.l.errorf(x, "inline asm: %v", err)
		return
	}
	ops, clobbers, labels, ok := fl.asmArgs(x)
	if !ok {
		return
	}
	if len(labels) == 1 && fl.asmGotoBranch(text, ops, labels[0]) {
		return
	}
	if len(labels) > 0 {
		if text, ok = fl.asmGotoText(x, text, ops, labels); !ok {
			return
		}
		ops = append(ops, asmOperand{name: asmGotoSel, constraint: "r", output: true, node: x, tied: -1})
	}
	if !fl.f.Naked {
		// Outputs after the first leave through stack slots (with asm
		// goto all do: its selector is the result register). The stores
		// are text, so that a late immediate's second assembly makes
		// them too; asm goto's go on its fallthrough path, before the
		// selector's stubs, as the outputs hold there.
		first := len(labels) == 0
		stores := ""
		for i := range ops {
			if ops[i].output && ops[i].constraint == "r" && ops[i].name != asmGotoSel {
				if !first {
					ops[i].spilled = true
					ops = append(ops, asmOperand{constraint: "r", node: ops[i].node, tied: -1, spillOf: i + 1})
					stores += fmt.Sprintf("\n*(u64 *)(%%%d + 0) = %%%d", len(ops)-1, i)
				}
				first = false
			}
		}
		if len(labels) > 0 {
			text = strings.Replace(text, asmGotoFallthrough, stores+asmGotoFallthrough, 1)
		} else {
			text += stores
		}
	}
	if strings.TrimSpace(text) == "" && (len(ops) == 0 || !allScalar(ops)) {
		// A compiler barrier: bpfcc does not move memory accesses across
		// statements anyway, and aggregates stay in memory.
		return
	}
	regs, ok := fl.asmRegisters(x, text, ops, clobbers)
	if !ok {
		return
	}
	bops := make([]bpfasm.Operand, len(ops))
	var late []int
	for i, op := range ops {
		bops[i] = bpfasm.Operand{Name: op.name, Kind: bpfasm.KindReg, Reg: regs[i]}
		switch {
		case op.mem:
			bops[i].Kind = bpfasm.KindMem
		case op.constraint == "r":
		case fl.lateImmediate(op):
			// Assembled with 0 now, and again by codegen once inlining
			// and folding made the value a constant.
			bops[i] = bpfasm.Operand{Name: op.name, Kind: bpfasm.KindImm}
			late = append(late, i)
		default:
			if bops[i], ok = fl.asmImmediate(op); !ok {
				return
			}
		}
	}
	fl.l.nasm++
	insns, err := bpfasm.Assemble(text, bops, fl.l.nasm)
	if err != nil {
		// An error only where optimisation leaves it reachable: clang
		// assembles live code only, and bpf_experimental.h's bpf_cmp
		// writes "s==" in a branch that __builtin_strcmp of its operator
		// makes dead.
		fl.setPos(x.Token3)
		fl.emit(&ir.Instr{Op: ir.OpCallFunc, Sym: ir.TrapSym, Note: err.Error()})
		return
	}
	code := &ir.Asm{Insns: insns, Text: text, ID: fl.l.nasm}
	for _, o := range bops {
		code.Operands = append(code.Operands, ir.AsmOperand{Name: o.Name, IsReg: o.Kind == bpfasm.KindReg, Reg: o.Reg, Imm: o.Imm, Sym: o.Sym})
	}
	sel, spilled := fl.emitAsm(x, code, ops, regs, clobbers, late)
	if len(labels) > 0 && sel != 0 {
		fl.asmGotoBranches(sel, labels)
	}
	spilled()
}

// lateImmediate reports whether an "i" operand is a local variable or
// parameter of integer type: in an always-inline function (libbpf's
// bpf_tail_call_static passes its slot so) it is a constant once the
// function is inlined.
func (fl *fnLowerer) lateImmediate(op asmOperand) bool {
	if _, ok := constAddress(op.expr); ok {
		return false
	}
	id := ident(op.expr)
	if id == nil {
		return false
	}
	d := declOf(id)
	return d != nil && fl.vars[d] != nil && isScalar(op.expr.Type()) && !isPtr(op.expr.Type()) && !fl.f.Naked
}

// emitAsm binds the operands and emits the OpAsm. It returns the register
// of asm goto's selector output (asmGotoSel), when there is one.
//
// spilled reads the outputs that leave through stack slots; asmStmt calls
// it where they hold: after asm goto's branches, on its fallthrough path.
func (fl *fnLowerer) emitAsm(x *cc.Asm, code *ir.Asm, ops []asmOperand, regs []asm.Register, clobbers []asm.Register, late []int) (sel ir.Reg, spilled func()) {
	spilled = func() {}
	in := &ir.Instr{Op: ir.OpAsm, Asm: code}
	var out *asmOperand
	var outLv lvalue
	// spills are the outputs after the first, and their slots.
	type spill struct {
		lv   lvalue
		slot *ir.Slot
	}
	var spills []spill
	spillLv := map[int]lvalue{}
	// written is the first input operand whose register the code writes.
	var written *asmOperand
	var writtenReg asm.Register
	for i := range ops {
		op := &ops[i]
		if op.constraint != "r" {
			continue
		}
		if fl.f.Naked {
			set, ok := fl.nakedOperand(*op, regs[i])
			if !ok {
				return 0, spilled
			}
			code.Insns = append(asm.Instructions{set}, code.Insns...)
			continue
		}
		if op.spillOf > 0 {
			lv := spillLv[op.spillOf-1]
			slot := fl.newSlot("asm.out", 8, 8)
			spills = append(spills, spill{lv, slot})
			in.Args = append(in.Args, ir.R(fl.addr(lvalue{slot: slot, t: lv.t})))
			code.In = append(code.In, regs[i])
			continue
		}
		if op.spilled {
			lv := fl.lvalueOf(op.expr)
			if !isScalar(lv.t) {
				fl.l.errorf(op.node, "inline asm output must be a scalar or pointer, not %s", typeName(lv.t))
				return 0, spilled
			}
			spillLv[i] = lv
			if op.inout {
				in.Args = append(in.Args, fl.load(lv).op)
				code.In = append(code.In, regs[i])
			}
			continue
		}
		if op.output {
			// The one output left: the first (the others are spilled)
			// or asm goto's selector.
			if op.name == asmGotoSel {
				out, code.Out = op, regs[i]
				continue
			}
			out, outLv = op, fl.lvalueOf(op.expr)
			if !isScalar(outLv.t) {
				fl.l.errorf(op.node, "inline asm output must be a scalar or pointer, not %s", typeName(outLv.t))
				return 0, spilled
			}
			code.Out = regs[i]
			if !op.inout {
				continue
			}
			in.Args = append(in.Args, fl.load(outLv).op)
			code.In = append(code.In, regs[i])
			continue
		}
		if op.mem {
			lv := fl.lvalueOf(op.expr)
			if lv.reg != nil {
				// A register variable goes to a stack slot for the code
				// and, an output, comes back from it after.
				slot := fl.newSlot("asm.mem", 8, 8)
				sl := lvalue{slot: slot, t: lv.t}
				if !op.memOut || op.inout {
					fl.store(sl, fl.load(lv))
				}
				if op.memOut {
					spills = append(spills, spill{lv, slot})
				}
				lv = sl
			}
			in.Args = append(in.Args, ir.R(fl.addr(lv)))
			code.In = append(code.In, regs[i])
			continue
		}
		v := fl.rvalue(op.expr)
		if !isScalar(v.t) {
			fl.l.errorf(op.node, "inline asm input must be a scalar or pointer, not %s", typeName(v.t))
			return 0, spilled
		}
		in.Args = append(in.Args, v.op)
		code.In = append(code.In, regs[i])
		if written == nil && slices.Contains(bpfasm.Writes(code.Insns), regs[i]) {
			written, writtenReg = op, regs[i]
		}
	}
	for _, i := range late {
		code.Late = append(code.Late, ir.AsmLate{Operand: i, Arg: len(in.Args)})
		in.Args = append(in.Args, fl.rvalue(ops[i].expr).op)
	}
	if !fl.asmReferences(x, code) {
		return 0, spilled
	}
	code.Writes = mergeRegs(bpfasm.Writes(code.Insns), clobbers)
	if out == nil && written != nil {
		// An input the code writes, with no output: GNU C leaves the
		// result undefined, but clang keeps a register variable in the
		// operand's register, so the variable holds what the code left
		// there, and code relies on it (tracee clamps a size with "if
		// %[size] < %[max] goto +1; %[size] = %[max]" on an input before
		// passing it to bpf_perf_event_output). Such a variable gets the
		// register back.
		if lv, ok := fl.registerVariable(written.expr); ok {
			out, outLv, code.Out = written, lv, writtenReg
		}
	}
	if out != nil {
		code.Writes = mergeRegs(code.Writes, []asm.Register{code.Out})
		in.Dst = fl.tmp()
	}
	fl.emit(in)
	if out != nil && out.name != asmGotoSel {
		fl.store(outLv, value{op: ir.R(in.Dst), t: outLv.t})
	}
	spilled = func() {
		for _, sp := range spills {
			r := fl.tmp()
			fl.emit(&ir.Instr{Op: ir.OpLoad, Dst: r, A: ir.R(fl.addr(lvalue{slot: sp.slot, t: sp.lv.t})), Size: 8, Space: ir.SpaceStack})
			fl.store(sp.lv, value{op: ir.R(r), t: sp.lv.t})
		}
	}
	return in.Dst, spilled
}

func mergeRegs(a, b []asm.Register) []asm.Register {
	var set [asm.R10 + 1]bool
	for _, r := range append(append([]asm.Register(nil), a...), b...) {
		set[r] = true
	}
	var out []asm.Register
	for r, ok := range set {
		if ok && asm.Register(r) != asm.R10 {
			out = append(out, asm.Register(r))
		}
	}
	return out
}

// asmArgs reads the output, input, clobber and (asm goto) label lists.
func (fl *fnLowerer) asmArgs(x *cc.Asm) (ops []asmOperand, clobbers []asm.Register, labels []asmLabel, ok bool) {
	section := 0
	for al := x.AsmArgList; al != nil; al = al.AsmArgList {
		for el := al.AsmExpressionList; el != nil; el = el.AsmExpressionList {
			switch section {
			case 0, 1:
				op, ok := fl.asmOperand(el, section == 0)
				if !ok {
					return nil, nil, nil, false
				}
				ops = append(ops, op)
			case 2:
				r, ok := fl.asmClobber(el)
				if !ok {
					return nil, nil, nil, false
				}
				if r >= 0 {
					clobbers = append(clobbers, asm.Register(r))
				}
			default:
				id := ident(el.AssignmentExpression)
				if id == nil {
					fl.l.errorf(el.AssignmentExpression, "asm goto: expected a label")
					return nil, nil, nil, false
				}
				labels = append(labels, asmLabel{name: id.Token.SrcStr(), node: el.AssignmentExpression})
			}
		}
		section++
	}
	return ops, clobbers, labels, true
}

// asmOperand reads one `[name] "constraint" (expr)`, which cc parses as a
// call of the constraint string.
func (fl *fnLowerer) asmOperand(el *cc.AsmExpressionList, output bool) (asmOperand, bool) {
	op := asmOperand{output: output, node: el.AssignmentExpression, tied: -1}
	call, _ := el.AssignmentExpression.(*cc.PostfixExpression)
	var cons *cc.PrimaryExpression
	if call != nil && call.Case == cc.PostfixExpressionCall && call.ArgumentExpressionList != nil {
		cons, _ = call.PostfixExpression.(*cc.PrimaryExpression)
	}
	if cons == nil || cons.Case != cc.PrimaryExpressionString {
		fl.l.errorf(el.AssignmentExpression, "malformed asm operand: expected \"constraint\"(expression)")
		return op, false
	}
	op.expr = call.ArgumentExpressionList.AssignmentExpression
	if el.AsmIndex != nil {
		if id := ident(el.AsmIndex.ExpressionList); id != nil {
			op.name = id.Token.SrcStr()
		}
	}
	c, _ := cString(cons.Token.SrcStr())
	op.inout = strings.Contains(c, "+")
	op.constraint = strings.Trim(c, "=+&%")
	switch op.constraint {
	case "g", "rmi", "ri":
		if _, ok := fl.constVal(op.expr); ok && !output && !op.inout && isScalar(op.expr.Type()) && !isPtr(op.expr.Type()) {
			// An integer constant that may be an immediate is one, as
			// clang makes it (bpf_assert's "r1 = %[value]").
			op.constraint = "i"
			break
		}
		op.constraint = "r"
	case "p", "rm":
		// An address operand, or one that may be a register: BPF keeps
		// them in registers (bpf_misc.h's __sink(x) is asm("" : "+g"(x))).
		op.constraint = "r"
	}
	if op.constraint == "m" {
		// Memory: the text reads it (and, an output, writes it) at an
		// address in a register, as clang's (r10 - 8) of a spilled
		// variable (tetragon's return_stack_error: "+m"(args)).
		op.constraint, op.mem = "r", true
		op.memOut, op.output = output, false
	}
	if n, err := strconv.Atoi(op.constraint); err == nil && !output {
		// A matching constraint: the input goes in output n's register
		// (libbpf's barrier_var is asm("" : "=r"(v) : "0"(v))).
		op.constraint, op.tied = "r", n
	}
	switch {
	case op.constraint == "r" || op.constraint == "i" || op.constraint == "n":
	case output:
		fl.l.errorf(cons, "asm output constraint %q is not supported (use \"=r\" or \"+r\")", c)
		return op, false
	default:
		fl.l.errorf(cons, "asm operand constraint %q is not supported (use \"r\" or \"i\")", c)
		return op, false
	}
	if output && op.constraint != "r" {
		fl.l.errorf(cons, "asm output constraint %q is not supported (use \"=r\" or \"+r\")", c)
		return op, false
	}
	return op, true
}

// asmClobber reads one clobber: "rN" (returned), "memory" or "cc" (-1).
func (fl *fnLowerer) asmClobber(el *cc.AsmExpressionList) (int, bool) {
	pe, _ := el.AssignmentExpression.(*cc.PrimaryExpression)
	if pe == nil || pe.Case != cc.PrimaryExpressionString {
		fl.l.errorf(el.AssignmentExpression, "malformed asm clobber: expected a string")
		return 0, false
	}
	s, _ := cString(pe.Token.SrcStr())
	switch s {
	case "memory", "cc":
		return -1, true
	}
	if m := regName().FindStringSubmatch(s); m != nil {
		n, _ := strconv.Atoi(m[1])
		if n < 10 {
			return n, true
		}
	}
	fl.l.errorf(pe, "unknown asm clobber %q (BPF has r0-r9, \"memory\" and \"cc\")", s)
	return 0, false
}

var regName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[rw]([0-9]|10)$`) })

// regMention finds the registers asm text names outright.
var asmCondition = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\.ifn?c[^;\n]*`) })
var regMention = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b[rw]([0-9]|10)\b`) })

// asmRegisters picks a register for every "r" operand: one the text does
// not name and no clobber or other operand takes, the argument registers
// first as clang prefers them. A matching constraint ("0") shares its
// operand's register.
func (fl *fnLowerer) asmRegisters(x *cc.Asm, text string, ops []asmOperand, clobbers []asm.Register) ([]asm.Register, bool) {
	var taken [asm.R10 + 1]bool
	taken[asm.R10] = true
	// A register an .ifc compares an operand with is no use of it.
	for _, m := range regMention().FindAllStringSubmatch(asmCondition().ReplaceAllString(text, ""), -1) {
		n, _ := strconv.Atoi(m[1])
		taken[n] = true
	}
	for _, r := range clobbers {
		taken[r] = true
	}
	order := []asm.Register{asm.R1, asm.R2, asm.R3, asm.R4, asm.R5, asm.R0, asm.R6, asm.R7, asm.R8, asm.R9}
	regs := make([]asm.Register, len(ops))
	for i := range ops {
		if ops[i].constraint != "r" {
			continue
		}
		if t := ops[i].tied; t >= 0 {
			if t >= i || !ops[t].output {
				fl.l.errorf(ops[i].node, "matching constraint \"%d\" does not name an output operand", t)
				return nil, false
			}
			regs[i] = regs[t]
			continue
		}
		found := false
		for _, r := range order {
			if !taken[r] {
				regs[i], taken[r], found = r, true, true
				break
			}
		}
		if !found {
			fl.l.errorf(x, "inline asm: no register left for operand %d: the text and clobbers use them all", i)
			return nil, false
		}
	}
	return regs, true
}

// asmImmediate evaluates an "i" operand: an integer constant, a helper
// (its id, for "call %[helper]"), a function, map or global (its name, for
// "call %[f]" and "r1 = %[map] ll"), or an instruction given as a struct
// bpf_insn compound literal (__imm_insn, for ".8byte %[insn]").
func (fl *fnLowerer) asmImmediate(op asmOperand) (bpfasm.Operand, bool) {
	o := bpfasm.Operand{Name: op.name, Kind: bpfasm.KindImm}
	if v, ok := constAddress(op.expr); ok {
		o.Imm = v
		return o, true
	}
	if b, ok := fl.constObjectBytes(op.expr); ok {
		o.Imm = int64(binary.LittleEndian.Uint64(append(b, make([]byte, 8)...)))
		return o, true
	}
	id := ident(stripAddr(op.expr))
	var d *cc.Declarator
	if id != nil {
		d = declOf(id)
	}
	if d == nil {
		fl.l.errorf(op.node, "asm operand %q needs a constant, a helper, a function or a global", op.name)
		return o, false
	}
	if hid, ok := fl.l.helpers[d]; ok {
		o.Imm = hid
		return o, true
	}
	o.Kind = bpfasm.KindSym
	if g := fl.l.globals[d]; g != nil {
		o.Sym = g.name
		return o, true
	}
	if ft, ok := d.Type().(*cc.FunctionType); ok {
		o.Sym = d.Name()
		if fl.l.ksymFuncs[d.Name()] {
			fl.l.kfunc(d, ft)
		}
		return o, true
	}
	fl.l.errorf(op.node, "asm operand %q: %s is not a constant, a helper, a function or a global", op.name, d.Name())
	return o, false
}

// asmReferences checks the symbols the asm code names (call f, r1 = m ll)
// and records calls so that the callee is compiled.
func (fl *fnLowerer) asmReferences(x *cc.Asm, code *ir.Asm) bool {
	insns := code.Insns
	for i, ins := range insns {
		ref := ins.Reference()
		if ref == "" {
			continue
		}
		if fi, ok := fl.l.funcs[ref]; ok && !(ins.OpCode.IsDWordLoad() && fi.f.Inline && fi.f.Static) {
			fl.fi.calls[fi.name] = x.Position()
			if ins.OpCode.IsDWordLoad() {
				// A function's address: a callback for bpf_loop and the like.
				insns[i].Src = asm.PseudoFunc
				code.Funcs = append(code.Funcs, ref)
			}
			continue
		}
		if fl.l.isGlobal(ref) || fl.l.isKfunc(ref) {
			continue
		}
		if ins.OpCode.IsDWordLoad() {
			// `r1 = name ll` of a symbol this file does not define (or
			// names only an always_inline static function, which clang
			// never emits): an undefined symbol the loader or the static
			// linker provides, as clang's assembler leaves it
			// (datadog-agent's LOAD_CONSTANT, patched by its loader).
			fl.l.asmExtern(ref)
			continue
		}
		fl.l.errorf(x.Token3, "inline asm refers to %q, which is not a function, map or global of this file", ref)
		return false
	}
	return true
}

// asmExtern records name, loaded by inline asm and defined nowhere in the
// unit, as an undefined symbol without BTF.
func (l *lowerer) asmExtern(name string) {
	for _, g := range l.m.Globals {
		if g.Name == name && g.Extern {
			return
		}
	}
	l.m.Globals = append(l.m.Globals, &ir.Global{Name: name, Extern: true})
}

// isGlobal reports whether name is a map or variable of the unit.
func (l *lowerer) isGlobal(name string) bool {
	if l.globalNames[name] != nil {
		return true
	}
	for _, g := range l.globals {
		if g.name == name {
			return true
		}
	}
	return false
}

func (l *lowerer) isKfunc(name string) bool {
	for _, k := range l.m.Kfuncs {
		if k.Name == name {
			return true
		}
	}
	return false
}

// allScalar reports whether every operand is a scalar or pointer, which
// a register can hold.
func allScalar(ops []asmOperand) bool {
	for _, op := range ops {
		if !isScalar(op.expr.Type()) {
			return false
		}
	}
	return true
}

// registerVariable returns the lvalue of e when e names a scalar local
// that lives in a register (its address is never taken).
func (fl *fnLowerer) registerVariable(e cc.ExpressionNode) (lvalue, bool) {
	id := ident(e)
	if id == nil {
		return lvalue{}, false
	}
	d := declOf(id)
	if d == nil || fl.vars[d] == nil || fl.vars[d].slot != nil || fl.vars[d].ptr != 0 || !isScalar(e.Type()) {
		return lvalue{}, false
	}
	lv := fl.lvalueOf(e)
	return lv, lv.reg != nil
}
