package dwarfvars

import (
	"debug/dwarf"
	"debug/elf"
	"fmt"

	"github.com/go-delve/delve/pkg/dwarf/frame"
)

// DW_OP_GNU_parameter_ref: gcc's IPA-SRA and IPA-CP clones (f.isra.0,
// f.constprop.0) drop a parameter whose value the callers know. The clone's
// location says "the value parameter P had at the call"; each call site
// lists it as a DW_TAG_call_site_parameter naming P, with a DW_AT_call_value
// to evaluate in the caller's frame. As gdb does, the probe picks the call
// site by the return address (at CFA-8 throughout an x86-64 function) and
// evaluates that site's value in the caller's frame at the call:
// callee-saved registers unwound through the callee's CFI, argument
// registers from their entry values (they still hold the call's values when
// the callee starts), the caller's stack pointer from the callee's CFA.

const opGNUParameterRef = 0xfa

// DWARF 5 and GNU call-site tags and attributes debug/dwarf does not name.
const (
	tagCallSite          dwarf.Tag  = 0x48
	tagCallSiteParameter dwarf.Tag  = 0x49
	tagGNUCallSite       dwarf.Tag  = 0x4109
	tagGNUCallSiteParam  dwarf.Tag  = 0x410a
	attrCallReturnPC     dwarf.Attr = 0x7d
	attrCallValue        dwarf.Attr = 0x7e
	attrCallParameter    dwarf.Attr = 0x80
	attrGNUCallSiteValue dwarf.Attr = 0x2111
)

// callSiteValue is one call's value for a dropped parameter.
type callSiteValue struct {
	returnPC uint64
	value    []byte
	cu       *cuInfo
}

// callSiteValues returns the calls that give parameter DIE param a value,
// from an index of every call-site parameter built on first use.
func (b *Binary) callSiteValues(param dwarf.Offset) ([]callSiteValue, error) {
	b.callOnce.Do(func() { b.callVals, b.callErr = b.indexCallSites() })
	return b.callVals[param], b.callErr
}

func (b *Binary) indexCallSites() (map[dwarf.Offset][]callSiteValue, error) {
	idx := map[dwarf.Offset][]callSiteValue{}
	r := b.dw.Reader()
	var cu *cuInfo
	var ret uint64
	for {
		e, err := r.Next()
		if err != nil {
			return nil, malformed("call sites", err)
		}
		if e == nil {
			return idx, nil
		}
		switch e.Tag {
		case dwarf.TagCompileUnit, dwarf.TagPartialUnit:
			if cu, err = b.cuFor(e); err != nil {
				return nil, err
			}
		case tagCallSite:
			ret, _ = e.Val(attrCallReturnPC).(uint64)
		case tagGNUCallSite:
			ret, _ = e.Val(dwarf.AttrLowpc).(uint64)
		case tagCallSiteParameter, tagGNUCallSiteParam:
			p, ok := e.Val(attrCallParameter).(dwarf.Offset)
			if !ok {
				p, ok = e.Val(dwarf.AttrAbstractOrigin).(dwarf.Offset)
			}
			v, _ := e.Val(attrCallValue).([]byte)
			if v == nil {
				v, _ = e.Val(attrGNUCallSiteValue).([]byte)
			}
			if ok && v != nil && ret != 0 && cu != nil {
				idx[p] = append(idx[p], callSiteValue{returnPC: ret, value: v, cu: cu})
			}
		}
	}
}

// parameterRef evaluates DW_OP_GNU_parameter_ref with its unit-relative
// operand: the sum over the parameter's call sites of (return address ==
// site) * value, plus a read of address 0 when no site matches, so an
// unknown caller counts as a failed read rather than a silent 0. A local
// clone with one call site needs no check, and must not have one: a
// uretprobe on the function replaces the return address on the stack with
// the kernel's trampoline.
func (ctx *evalCtx) parameterRef(rel uint64) (*Fetch, error) {
	const op = "DW_OP_GNU_parameter_ref"
	if ctx.caller {
		return nil, ctx.err(op, "a dropped parameter of the caller")
	}
	sites, err := ctx.b.callSiteValues(ctx.cu.hdr.start + dwarf.Offset(rel))
	if err != nil {
		return nil, ctx.err(op, err.Error())
	}
	if len(sites) == 0 {
		return nil, ctx.err(op, "no call site gives the dropped parameter a value")
	}
	cfa, err := ctx.cfa()
	if err != nil {
		return nil, err
	}
	retSlot := cfa.then(Step{Op: OpAdd, Imm: -8})
	ret := retSlot.then(Step{Op: OpDeref, Size: 8})
	if sym, ok := ctx.b.symbolAt(ctx.pc); len(sites) == 1 && ok && elf.ST_BIND(sym.Info) == elf.STB_LOCAL {
		return ctx.callerValue(sites[0])
	}
	var sum, matched *Fetch
	for _, s := range sites {
		v, err := ctx.callerValue(s)
		if err != nil {
			return nil, err
		}
		here := binop(OpEq, slot{f: ret}, slot{f: ctx.static(s.returnPC)})
		term := binop(OpMul, slot{f: here}, slot{f: v})
		if sum == nil {
			sum, matched = term, here
			continue
		}
		sum = binop(OpAdd, slot{f: sum}, slot{f: term})
		matched = binop(OpAdd, slot{f: matched}, slot{f: here})
	}
	guard := binop(OpMul, slot{f: matched}, slot{f: retSlot}).
		then(Step{Op: OpDeref, Size: 1}).then(Step{Op: OpAnd, Imm: 0})
	return sum.then(Step{Op: OpAdd, Arg: guard}), nil
}

// callerValue evaluates a call site's DW_AT_call_value in the caller's
// frame at the call, in terms of the callee's state at ctx.pc.
func (ctx *evalCtx) callerValue(s callSiteValue) (*Fetch, error) {
	const op = "DW_OP_GNU_parameter_ref"
	rules, err := ctx.b.frameRules(ctx.pc)
	if err != nil {
		return nil, ctx.err(op, err.Error())
	}
	calleeCFA, err := ctx.cfa()
	if err != nil {
		return nil, err
	}
	caller := *ctx
	caller.cu, caller.pc, caller.caller, caller.probePC = s.cu, s.returnPC-1, true, ctx.pc
	caller.reg = func(reg int) (*Fetch, error) {
		if reg == regRSP {
			return calleeCFA, nil // the caller's rsp before the call pushed the return address
		}
		if !calleeSaved(reg) {
			// Argument and scratch registers hold the call's values
			// when the callee starts: read them there, or at the site
			// itself when it is the entry.
			if ctx.pc == ctx.entryPC {
				return ctx.regFetch(reg)
			}
			off, ok := RegsOffset(reg)
			if !ok {
				return nil, ctx.regErr(reg)
			}
			return &Fetch{Start: Source{Kind: SrcEntryValue, Reg: reg, RegsOff: off}}, nil
		}
		rule, ok := rules.Regs[uint64(reg)]
		switch {
		case !ok || rule.Rule == frame.RuleSameVal:
			return ctx.regFetch(reg)
		case rule.Rule == frame.RuleOffset:
			return calleeCFA.then(Step{Op: OpAdd, Imm: rule.Offset}).then(Step{Op: OpDeref, Size: 8}), nil
		case rule.Rule == frame.RuleValOffset:
			return calleeCFA.then(Step{Op: OpAdd, Imm: rule.Offset}), nil
		case rule.Rule == frame.RuleRegister:
			return ctx.regFetch(int(rule.Reg))
		}
		return nil, ctx.err(op, fmt.Sprintf("the caller's %s cannot be recovered at %#x", regName(reg), ctx.pc))
	}
	caller.cfaFn = func() (*Fetch, error) {
		src, err := ctx.b.cfaAt(caller.pc)
		if err != nil {
			return nil, ctx.err(op, "caller's frame: "+err.Error())
		}
		r, err := caller.reg(src.Reg)
		if err != nil {
			return nil, err
		}
		return r.then(Step{Op: OpAdd, Imm: src.Offset}), nil
	}
	caller.frameBase = func() (*Fetch, error) {
		ft, err := ctx.b.funcAt(caller.pc)
		if err != nil {
			return nil, ctx.err(op, "caller's frame base: "+err.Error())
		}
		return ctx.b.frameBase(&caller, ft, caller.pc)
	}
	loc, err := caller.eval(s.value, 8)
	if err != nil {
		return nil, err
	}
	switch loc.Kind {
	case LocValue:
		return loc.Fetch, nil
	case LocMemory:
		// A DWARF expression's value is the top of the stack.
		return loc.Fetch, nil
	}
	return nil, ctx.err(op, "the call site's value is not available")
}

// regRSP is the DWARF number of x86-64's stack pointer.
const regRSP = 7

// calleeSaved reports whether the x86-64 SysV ABI preserves a register
// across calls: rbx, rbp, r12-r15.
func calleeSaved(reg int) bool {
	return reg == 3 || reg == 6 || reg >= 12 && reg <= 15
}
