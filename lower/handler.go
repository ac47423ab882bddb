package lower

import (
	"github.com/cilium/ebpf/asm"
	"github.com/cilium/ebpf/btf"
	"modernc.org/cc/v4"

	"github.com/bpfcc/bpfcc/abi"
	"github.com/bpfcc/bpfcc/bind"
	"github.com/bpfcc/bpfcc/dwarfvars"
	"github.com/bpfcc/bpfcc/ir"
)

// entryMapName is the LRU hash map where the entry-value helper saves the
// registers, keyed by (pid_tgid, CFA at entry).
//
// Records are not deleted at function return (that would take a uretprobe,
// which rewrites the traced stack's return address). They cannot be reused
// wrongly: the map is created with the programs, the entry helper is
// attached before the line probes that read it, and it overwrites the
// record of (thread, CFA) at every call, so a record a line probe finds is
// that of its own frame. A call entered before the helper was attached (-p
// PID on a running process), or one whose record the LRU evicted, has no
// record: the line probe then counts a read error instead of making up a
// value.
const entryMapName = abi.EntryRegsMap

// entryMapSize bounds the saved records (frames of traced functions).
const entryMapSize = 10240

// errMapName counts failed reads of traced variables: an array of one
// element whose value is a struct with one 64-bit counter per (program,
// bound parameter), named PROGRAM__PARAM, so the runtime can say which
// handler and variable failed.
const errMapName = abi.ReadErrorsMap

// entryRegs is how many DWARF registers (0..16) an entry record holds. The
// entry helper saves all of them, so the one record per (thread, CFA) serves
// every handler at that function, whatever registers each needs.
const entryRegs = 17

// boundState is what the bound handlers of a module share.
type boundState struct {
	// errVal is the value type of the read-error map (nil until some read
	// can fail); counters maps a counter's name to its byte offset there.
	errVal   *btf.Struct
	counters map[string]int
	entryMap bool
	// entryProgs holds the one entry helper per entry section.
	entryProgs map[string]*ir.Func
}

// binder fetches the value of one bound parameter.
type binder struct {
	fl   *fnLowerer
	ctx  ir.Reg
	bd   *dwarfvars.Binding
	site *bind.HandlerSite
	// counter names this parameter's read-error counter.
	counter string
}

// bindParams emits the prologue that fetches each bound parameter and
// stores it into the parameter's local.
func (fl *fnLowerer) bindParams(ctx ir.Reg, params []*cc.Parameter, site *bind.HandlerSite) {
	for i, bd := range site.Bindings {
		p := params[i+1]
		d := p.Declarator
		if d == nil || d.Name() == "" || bd == nil {
			continue
		}
		pt := p.Type()
		if !isScalar(pt) {
			fl.l.errorf(p, "handler %q parameter %q: only scalar and pointer parameters can be bound to traced variables", fl.fi.name, d.Name())
			continue
		}
		first, start := fl.b, len(fl.b.Instrs)
		bn := &binder{fl: fl, ctx: ctx, bd: bd, site: site, counter: abi.ReadErrorCounter(site.Name, d.Name())}
		raw := bn.fetchBinding()
		v := fl.convertBound(p, bd, raw)
		lv := fl.declareLocal(d, pt)
		fl.storeVar(lv, v)
		if isPtr(pt) {
			if fl.tracee == nil {
				fl.tracee = map[*cc.Declarator]string{}
			}
			fl.tracee[d] = bd.Expr.Text
		}
		if start < len(first.Instrs) {
			first.Instrs[start].Note = bd.Describe()
		}
	}
}

// convertBound converts the fetched 64-bit value, which holds the traced
// type's bytes, to the parameter's C type, warning about lossy bindings.
func (fl *fnLowerer) convertBound(p *cc.Parameter, bd *dwarfvars.Binding, raw ir.Reg) value {
	t := bd.Type
	size := 8
	signed := false
	if t != nil && !t.Scalar() {
		fl.l.errorf(p, "handler %q parameter %q: %s is a %s (%d bytes), not a scalar; bind one of its members or its address (&%s)", fl.fi.name, p.Name(), bd.Expr.Text, t.Spelling, t.Size, bd.Expr.Text)
	}
	if t != nil {
		size, signed = t.Size, t.Signed
		if t.Float {
			fl.l.errorf(p, "handler %q, probe %s, parameter %q: %s is floating point (%s); BPF cannot convert it", fl.fi.name, bd.Site, p.Name(), bd.Expr.Text, t.Spelling)
		}
	}
	src := fl.l.u.AST.ULong
	if signed {
		src = fl.l.u.AST.Long
	}
	v := value{op: ir.R(raw), t: src}
	if size > 0 && size < 8 {
		v = fl.ext(ir.R(raw), size*8, signed, src)
	}
	pt := p.Type()
	if ps := scalarSize(pt); size > 0 && ps < size {
		fl.l.warnf(p, "binding %s (%d bytes) to %q (%s, %d bytes) loses data", bd.Expr.Text, size, p.Name(), pt, ps)
	}
	if isPtr(pt) && t != nil && t.Kind != dwarfvars.KindPointer && !(t.Kind == dwarfvars.KindBase && size == 8 && !signed) {
		// A pointer parameter is dereferenced as tracee memory; an int's
		// value is not an address. Unsigned 64-bit integers often hold
		// one (uintptr_t), so they pass.
		fl.l.warnf(p, "binding %s (%s, not a pointer) to pointer parameter %q (%s): its value is read as a tracee address; bind &%s for its address, or take it as an integer", bd.Expr.Text, t.Spelling, p.Name(), pt, bd.Expr.Text)
	}
	return fl.convert(v, pt)
}

// fetchBinding evaluates the binding's location into a register.
func (bn *binder) fetchBinding() ir.Reg {
	fl, loc := bn.fl, bn.bd.Loc
	switch loc.Kind {
	case dwarfvars.LocValue:
		return bn.fetch(loc.Fetch)
	case dwarfvars.LocMemory:
		return bn.readTracee(bn.fetch(loc.Fetch), min(loc.Size, 8))
	case dwarfvars.LocPieces:
		acc := fl.toReg(value{op: ir.Imm(0)})
		for _, pc := range loc.Pieces {
			if pc.Offset >= 8 || pc.Loc.Kind == dwarfvars.LocOptimizedOut {
				continue
			}
			var part ir.Reg
			switch pc.Loc.Kind {
			case dwarfvars.LocValue:
				part = bn.fetch(pc.Loc.Fetch)
			case dwarfvars.LocMemory:
				part = bn.readTracee(bn.fetch(pc.Loc.Fetch), min(pc.Size, 8))
			default:
				continue
			}
			if pc.Size < 8 {
				m := fl.tmp()
				fl.andConst(m, part, int64(uint64(1)<<(8*pc.Size)-1))
				part = m
			}
			if pc.Offset > 0 {
				s := fl.tmp()
				fl.emit(&ir.Instr{Op: ir.OpALU, ALU: ir.Lsh, Dst: s, A: ir.R(part), B: ir.Imm(int64(8 * pc.Offset))})
				part = s
			}
			o := fl.tmp()
			fl.emit(&ir.Instr{Op: ir.OpALU, ALU: ir.Or, Dst: o, A: ir.R(acc), B: ir.R(part)})
			acc = o
		}
		return acc
	}
	fl.l.errorf(posNode{}, "handler %q: %s is optimized out at %s", fl.fi.name, bn.bd.Expr.Text, bn.bd.Site)
	return fl.toReg(value{op: ir.Imm(0)})
}

var fetchALU = map[dwarfvars.Op]ir.ALU{
	dwarfvars.OpAdd: ir.Add, dwarfvars.OpSub: ir.Sub, dwarfvars.OpMul: ir.Mul, dwarfvars.OpDiv: ir.SDiv,
	dwarfvars.OpMod: ir.UMod, dwarfvars.OpAnd: ir.And, dwarfvars.OpOr: ir.Or, dwarfvars.OpXor: ir.Xor,
	dwarfvars.OpShl: ir.Lsh, dwarfvars.OpShr: ir.Rsh, dwarfvars.OpShra: ir.Arsh,
}

var fetchCond = map[dwarfvars.Op]ir.Cond{
	dwarfvars.OpEq: ir.Eq, dwarfvars.OpNe: ir.Ne, dwarfvars.OpLt: ir.Slt, dwarfvars.OpLe: ir.Sle,
	dwarfvars.OpGt: ir.Sgt, dwarfvars.OpGe: ir.Sge,
}

// fetch lowers a dwarfvars.Fetch: its start value, then each step.
func (bn *binder) fetch(f *dwarfvars.Fetch) ir.Reg {
	fl, ctx := bn.fl, bn.ctx
	if f == nil {
		return fl.toReg(value{op: ir.Imm(0)})
	}
	var v ir.Reg
	switch f.Start.Kind {
	case dwarfvars.SrcConst:
		v = fl.toReg(value{op: ir.Imm(int64(f.Start.Value))})
	case dwarfvars.SrcReg:
		v = fl.ctxLoad(ctx, f.Start.RegsOff)
	case dwarfvars.SrcAddr:
		v = fl.addConst(fl.ctxLoad(ctx, ptRegsIP), f.Start.Offset)
	case dwarfvars.SrcCFA:
		v = fl.addConst(fl.ctxLoad(ctx, f.Start.RegsOff), f.Start.Offset)
	case dwarfvars.SrcEntryValue:
		v = bn.entryValue(f.Start.Reg)
	}
	for _, s := range f.Steps {
		var rhs ir.Operand = ir.Imm(s.Imm)
		if s.Arg != nil {
			rhs = ir.R(bn.fetch(s.Arg))
		} else if s.Imm < -1<<31 || s.Imm > 1<<31-1 {
			rhs = ir.R(fl.toReg(value{op: ir.Imm(s.Imm)}))
		}
		r := fl.tmp()
		switch {
		case s.Op == dwarfvars.OpDeref:
			r = bn.readTracee(v, s.Size)
		case s.Op == dwarfvars.OpNeg:
			fl.emit(&ir.Instr{Op: ir.OpNeg, Dst: r, A: ir.R(v)})
		case s.Op == dwarfvars.OpNot:
			fl.emit(&ir.Instr{Op: ir.OpALU, ALU: ir.Xor, Dst: r, A: ir.R(v), B: ir.Imm(-1)})
		default:
			if alu, ok := fetchALU[s.Op]; ok {
				fl.emit(&ir.Instr{Op: ir.OpALU, ALU: alu, Dst: r, A: ir.R(v), B: rhs})
			} else if c, ok := fetchCond[s.Op]; ok {
				res := fl.materialize(func(yes, no *ir.Block) { fl.branch(c, ir.R(v), rhs, false, yes, no) }, fl.l.u.AST.Long)
				r = fl.toReg(res)
			}
		}
		v = r
	}
	return v
}

// ptRegsIP is the offset of ip in x86-64 struct pt_regs.
const ptRegsIP = 128

func (fl *fnLowerer) ctxLoad(ctx ir.Reg, off int) ir.Reg {
	r := fl.tmp()
	fl.emit(&ir.Instr{Op: ir.OpLoad, Dst: r, A: ir.R(ctx), Off: int64(off), Size: 8, Space: ir.SpaceCtx})
	return r
}

func (fl *fnLowerer) addConst(r ir.Reg, c int64) ir.Reg {
	if c == 0 {
		return r
	}
	d := fl.tmp()
	op := ir.Imm(c)
	if c < -1<<31 || c > 1<<31-1 {
		op = ir.R(fl.toReg(value{op: op}))
	}
	fl.emit(&ir.Instr{Op: ir.OpALU, ALU: ir.Add, Dst: d, A: ir.R(r), B: op})
	return d
}

// sharedSlot returns the function's stack object called name, creating it
// the first time. The fetch code uses its objects only between a helper
// call and the load right after it, so every fetch can share them.
func (fl *fnLowerer) sharedSlot(name string, size, align int) *ir.Slot {
	for _, s := range fl.f.Slots {
		if s.Name == name {
			return s
		}
	}
	return fl.f.NewSlot(name, size, align)
}

// readTracee reads size bytes of tracee memory at addr into a zeroed stack
// slot and loads them. A failed read increments the parameter's counter in
// the read-error map, so the runtime can report it instead of a silent 0.
func (bn *binder) readTracee(addr ir.Reg, size int) ir.Reg {
	fl := bn.fl
	slot := fl.sharedSlot(abi.ReservedPrefix+"tracee", 8, 8)
	fa := fl.tmp()
	fl.emit(&ir.Instr{Op: ir.OpFrameAddr, Dst: fa, Slot: slot})
	fl.emit(&ir.Instr{Op: ir.OpStore, A: ir.R(fa), B: ir.Imm(0), Size: 8, Space: ir.SpaceStack})
	helper := int64(asm.FnProbeReadUser)
	name := "bpf_probe_read_user"
	if bn.site.Sleepable {
		helper, name = int64(asm.FnCopyFromUser), "bpf_copy_from_user"
	}
	rc := fl.tmp()
	fl.emit(&ir.Instr{Op: ir.OpCall, Dst: rc, Imm: helper, Args: []ir.Operand{ir.R(fa), ir.Imm(int64(size)), ir.R(addr)}, Note: name})
	bad, ok := fl.f.NewBlock(), fl.f.NewBlock()
	fl.branch(ir.Slt, ir.R(rc), ir.Imm(0), false, bad, ok)
	fl.b = bad
	bn.countError()
	fl.jump(ok)
	fl.b = ok
	r := fl.tmp()
	fl.emit(&ir.Instr{Op: ir.OpLoad, Dst: r, A: ir.R(fa), Size: size, Space: ir.SpaceStack})
	fl.setFact(r, fact{zext: size * 8})
	return r
}

// countError emits, in the current block: counters[0].PARAM++.
func (bn *binder) countError() {
	fl := bn.fl
	off := fl.l.errCounter(bn.counter)
	key := fl.sharedSlot(abi.ReservedPrefix+"errkey", 4, 4)
	ka := fl.tmp()
	fl.emit(&ir.Instr{Op: ir.OpFrameAddr, Dst: ka, Slot: key})
	zero := fl.toReg(value{op: ir.Imm(0)})
	fl.emit(&ir.Instr{Op: ir.OpStore, A: ir.R(ka), B: ir.R(zero), Size: 4, Space: ir.SpaceStack})
	m := fl.tmp()
	fl.emit(&ir.Instr{Op: ir.OpMapPtr, Dst: m, Sym: errMapName})
	val := fl.tmp()
	fl.emit(&ir.Instr{Op: ir.OpCall, Dst: val, Imm: int64(asm.FnMapLookupElem), Args: []ir.Operand{ir.R(m), ir.R(ka)}, Note: "bpf_map_lookup_elem"})
	inc, done := fl.f.NewBlock(), fl.f.NewBlock()
	fl.branch(ir.Eq, ir.R(val), ir.Imm(0), false, done, inc)
	fl.b = inc
	one := fl.toReg(value{op: ir.Imm(1)})
	fl.emit(&ir.Instr{Op: ir.OpAtomic, Atomic: ir.AtomicAdd, A: ir.R(val), B: ir.R(one), Off: int64(off), Size: 8})
	fl.jump(done)
	fl.b = done
}

// entryValue looks up the register value saved at function entry. No
// record (the call began before the helper was attached) is a read error.
func (bn *binder) entryValue(dwarfReg int) ir.Reg {
	fl, bd, ctx := bn.fl, bn.bd, bn.ctx
	e := bd.Entry
	if e == nil || dwarfReg < 0 || dwarfReg >= entryRegs {
		fl.l.errorf(posNode{}, "%s needs the entry value of DWARF register %d, which bpfcc cannot save", bd.Expr.Text, dwarfReg)
		return fl.toReg(value{op: ir.Imm(0)})
	}
	fl.l.needEntryMap()
	key := fl.sharedSlot(abi.ReservedPrefix+"entrykey", 16, 8)
	ka := fl.tmp()
	fl.emit(&ir.Instr{Op: ir.OpFrameAddr, Dst: ka, Slot: key})
	tid := fl.tmp()
	fl.emit(&ir.Instr{Op: ir.OpCall, Dst: tid, Imm: int64(asm.FnGetCurrentPidTgid), Note: "bpf_get_current_pid_tgid"})
	fl.emit(&ir.Instr{Op: ir.OpStore, A: ir.R(ka), B: ir.R(tid), Size: 8, Space: ir.SpaceStack})
	cfa := fl.addConst(fl.ctxLoad(ctx, e.SiteCFA.RegsOff), e.SiteCFA.Offset)
	fl.emit(&ir.Instr{Op: ir.OpStore, A: ir.R(ka), B: ir.R(cfa), Off: 8, Size: 8, Space: ir.SpaceStack})
	m := fl.tmp()
	fl.emit(&ir.Instr{Op: ir.OpMapPtr, Dst: m, Sym: entryMapName})
	val := fl.tmp()
	fl.emit(&ir.Instr{Op: ir.OpCall, Dst: val, Imm: int64(asm.FnMapLookupElem), Args: []ir.Operand{ir.R(m), ir.R(ka)}, Note: "bpf_map_lookup_elem"})
	r := fl.tmp()
	fl.emit(&ir.Instr{Op: ir.OpMov, Dst: r, A: ir.Imm(0)})
	have, missing, join := fl.f.NewBlock(), fl.f.NewBlock(), fl.f.NewBlock()
	fl.branch(ir.Ne, ir.R(val), ir.Imm(0), false, have, missing)
	fl.b = have
	fl.emit(&ir.Instr{Op: ir.OpLoad, Dst: r, A: ir.R(val), Off: int64(8 * dwarfReg), Size: 8, Space: ir.SpaceMapValue})
	fl.jump(join)
	fl.b = missing
	bn.countError()
	fl.jump(join)
	fl.b = join
	return r
}

// errCounter returns the byte offset of the read-error counter name,
// adding it to the map's value type the first time.
func (l *lowerer) errCounter(name string) int {
	bs := &l.bound
	if bs.errVal == nil {
		bs.errVal = &btf.Struct{Name: abi.ReadErrorsMap}
		bs.counters = map[string]int{}
		l.m.Maps = append(l.m.Maps, &ir.Map{Name: errMapName, BTF: l.mapStruct(2 /* BPF_MAP_TYPE_ARRAY */, 4, 0, 1, l.btf.intType("unsigned int", 4, btf.Unsigned), bs.errVal)})
	}
	if off, ok := bs.counters[name]; ok {
		return off
	}
	off := int(bs.errVal.Size)
	bs.counters[name] = off
	bs.errVal.Members = append(bs.errVal.Members, btf.Member{Name: name, Type: l.btf.intType("unsigned long", 8, btf.Unsigned), Offset: btf.Bits(8 * off)})
	bs.errVal.Size += 8
	return off
}

func (l *lowerer) needEntryMap() {
	if l.bound.entryMap {
		return
	}
	l.bound.entryMap = true
	u64 := l.btf.intType("unsigned long", 8, btf.Unsigned)
	key := &btf.Struct{Name: "bpfcc_entry_key", Size: 16, Members: []btf.Member{{Name: "tid", Type: u64}, {Name: "cfa", Type: u64, Offset: 64}}}
	val := &btf.Array{Index: l.btf.intType("__ARRAY_SIZE_TYPE__", 4, btf.Unsigned), Type: u64, Nelems: entryRegs}
	l.m.Maps = append(l.m.Maps, &ir.Map{Name: entryMapName, BTF: l.mapStruct(9 /* BPF_MAP_TYPE_LRU_HASH */, 16, 8*entryRegs, entryMapSize, key, val)})
}

// mapStruct builds a BTF-defined map's anonymous struct.
func (l *lowerer) mapStruct(typ, keySize, valSize, maxEntries uint32, key, val btf.Type) *btf.Struct {
	return &btf.Struct{Size: 32, Members: []btf.Member{
		{Name: "type", Type: l.mapUint(typ)},
		{Name: "key", Type: &btf.Pointer{Target: key}, Offset: 64},
		{Name: "value", Type: &btf.Pointer{Target: val}, Offset: 128},
		{Name: "max_entries", Type: l.mapUint(maxEntries), Offset: 192},
	}}
}

// mapUint is the type of a map attribute n, as __uint(name, n) declares
// it: int (*name)[n].
func (l *lowerer) mapUint(n uint32) btf.Type {
	return &btf.Pointer{Target: &btf.Array{Index: l.btf.intType("__ARRAY_SIZE_TYPE__", 4, btf.Unsigned), Type: l.btf.intType("int", 4, btf.Signed), Nelems: n}}
}

// entryHelper returns the entry-value helper a site needs, or nil when it
// needs none or an earlier site at the same function entry created it: one
// helper per function entry saves every register, for all handlers there,
// into one record per (thread, CFA).
func (l *lowerer) entryHelper(site *bind.HandlerSite) *ir.Func {
	if site.EntrySection == "" {
		return nil
	}
	var e *dwarfvars.EntryInfo
	for _, bd := range site.Bindings {
		if bd != nil && bd.Entry != nil {
			e = bd.Entry
			break
		}
	}
	if e == nil {
		return nil
	}
	if l.bound.entryProgs == nil {
		l.bound.entryProgs = map[string]*ir.Func{}
	}
	if l.bound.entryProgs[site.EntrySection] != nil {
		return nil
	}
	f := l.entryProgram(abi.EntryProgram(site.Name), site.EntrySection, e)
	l.bound.entryProgs[site.EntrySection] = f
	return f
}

// entryProgram builds the helper that saves the registers (all of DWARF
// registers 0..16) at the function's entry, keyed by thread and entry CFA.
func (l *lowerer) entryProgram(name, section string, e *dwarfvars.EntryInfo) *ir.Func {
	l.needEntryMap()
	f := &ir.Func{Name: name, Section: section, Returns: true}
	ctx := f.NewReg()
	f.Params = []ir.Reg{ctx}
	b := f.NewBlock()
	emit := func(in *ir.Instr) { b.Instrs = append(b.Instrs, in) }
	key := f.NewSlot("key", 16, 8)
	val := f.NewSlot("regs", 8*entryRegs, 8)
	ka, va := f.NewReg(), f.NewReg()
	emit(&ir.Instr{Op: ir.OpFrameAddr, Dst: ka, Slot: key})
	emit(&ir.Instr{Op: ir.OpFrameAddr, Dst: va, Slot: val})
	for reg := 0; reg < entryRegs; reg++ {
		off, ok := dwarfvars.RegsOffset(reg)
		if !ok {
			emit(&ir.Instr{Op: ir.OpStore, A: ir.R(va), B: ir.Imm(0), Off: int64(8 * reg), Size: 8, Space: ir.SpaceStack})
			continue
		}
		r := f.NewReg()
		emit(&ir.Instr{Op: ir.OpLoad, Dst: r, A: ir.R(ctx), Off: int64(off), Size: 8, Space: ir.SpaceCtx})
		emit(&ir.Instr{Op: ir.OpStore, A: ir.R(va), B: ir.R(r), Off: int64(8 * reg), Size: 8, Space: ir.SpaceStack})
	}
	tid := f.NewReg()
	emit(&ir.Instr{Op: ir.OpCall, Dst: tid, Imm: int64(asm.FnGetCurrentPidTgid), Note: "bpf_get_current_pid_tgid"})
	emit(&ir.Instr{Op: ir.OpStore, A: ir.R(ka), B: ir.R(tid), Size: 8, Space: ir.SpaceStack})
	cr := f.NewReg()
	emit(&ir.Instr{Op: ir.OpLoad, Dst: cr, A: ir.R(ctx), Off: int64(e.EntryCFA.RegsOff), Size: 8, Space: ir.SpaceCtx})
	cfa := f.NewReg()
	emit(&ir.Instr{Op: ir.OpALU, ALU: ir.Add, Dst: cfa, A: ir.R(cr), B: ir.Imm(e.EntryCFA.Offset)})
	emit(&ir.Instr{Op: ir.OpStore, A: ir.R(ka), B: ir.R(cfa), Off: 8, Size: 8, Space: ir.SpaceStack})
	m := f.NewReg()
	emit(&ir.Instr{Op: ir.OpMapPtr, Dst: m, Sym: entryMapName})
	rc := f.NewReg()
	emit(&ir.Instr{Op: ir.OpCall, Dst: rc, Imm: int64(asm.FnMapUpdateElem), Args: []ir.Operand{ir.R(m), ir.R(ka), ir.R(va), ir.Imm(0)}, Note: "bpf_map_update_elem"})
	emit(&ir.Instr{Op: ir.OpRet, A: ir.Imm(0)})
	ptRegs := &btf.Pointer{Target: &btf.Struct{Name: "pt_regs", Size: 168}}
	f.BTF = &btf.Func{Name: name, Linkage: btf.GlobalFunc, Type: &btf.FuncProto{Return: l.btf.intType("int", 4, btf.Signed), Params: []btf.FuncParam{{Name: "ctx", Type: ptRegs}}}}
	return f
}

// checkTraceeDeref rejects a direct dereference of a bound pointer into the
// traced process: the verifier would refuse the load.
func (fl *fnLowerer) checkTraceeDeref(base cc.ExpressionNode) {
	if fl.tracee == nil || fl.layoutOnly > 0 {
		return
	}
	id := ident(base)
	if id == nil {
		return
	}
	d, _ := id.ResolvedTo().(*cc.Declarator)
	if expr, ok := fl.tracee[d]; ok {
		fl.l.errorf(base, "%q holds %s, an address in the traced process: it cannot be dereferenced directly; bind the member you need (e.g. %s->field) or read it with bpf_probe_read_user", d.Name(), expr, expr)
	}
}
