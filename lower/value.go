package lower

import (
	"modernc.org/cc/v4"

	"github.com/bpfcc/bpfcc/ir"
)

// value is an rvalue: an operand of C type t. For aggregates (structs,
// unions) op is the object's address.
type value struct {
	op ir.Operand
	t  cc.Type
	// align is the known alignment of an aggregate's address when it is
	// less than its type's (a packed struct's member); 0: its type's.
	align int
}

// lvalue designates an object: a register variable or memory at an address.
type lvalue struct {
	t   cc.Type
	reg *local // register variable

	// Memory: address = (slot | sym | base) + off.
	slot  *ir.Slot
	sym   string
	base  ir.Reg
	off   int64
	space ir.Space
	field *cc.Field // bit-field being accessed
	isMap bool      // sym names a map: its "address" is the map pointer
	// core is the CO-RE access chain from base, when off must come from
	// a relocation (see core.go).
	core *coreAccess
	// align is the known alignment of base (the type it points to says
	// so; 0 means natural alignment). A slot's own alignment is used for
	// slots. Packed structs make it smaller than an access's size.
	align int
	// volatile marks an object the syntax makes volatile where cc's type
	// does not say so (see pointeeVolatile).
	volatile bool
}

// alignment is the alignment of lv's address as far as C's types tell.
func (lv lvalue) alignment() int {
	a := lv.align
	if lv.slot != nil {
		a = lv.slot.Align
	}
	if a <= 0 {
		return 8
	}
	if lv.off != 0 {
		a = min(a, int(lv.off&-lv.off))
	}
	return a
}

func (fl *fnLowerer) tmp() ir.Reg { return fl.f.NewReg() }

// toReg returns v's operand in a register, materialising immediates.
func (fl *fnLowerer) toReg(v value) ir.Reg {
	if !v.op.IsImm {
		return v.op.Reg
	}
	r := fl.tmp()
	fl.emit(&ir.Instr{Op: ir.OpMov, Dst: r, A: v.op})
	fl.setFact(r, immFact(v.op.Imm))
	return r
}

func immFact(v int64) fact {
	f := fact{}
	switch {
	case v >= 0 && v <= 0xff:
		f.zext = 8
	case v >= 0 && v <= 0xffff:
		f.zext = 16
	case v >= 0 && v <= 0xffffffff:
		f.zext = 32
	}
	switch {
	case v >= -128 && v <= 127:
		f.sext = 8
	case v >= -32768 && v <= 32767:
		f.sext = 16
	case v >= -1<<31 && v <= 1<<31-1:
		f.sext = 32
	}
	return f
}

func (fl *fnLowerer) setFact(r ir.Reg, f fact) {
	if f != (fact{}) {
		fl.facts[r] = f
	}
}

// factOf returns what is known about an operand's upper bits.
func (fl *fnLowerer) factOf(op ir.Operand) fact {
	if op.IsImm {
		return immFact(op.Imm)
	}
	return fl.facts[op.Reg]
}

// addr materialises an lvalue's address into a register.
func (fl *fnLowerer) addr(lv lvalue) ir.Reg {
	r := fl.tmp()
	switch {
	case lv.slot != nil && lv.core.relocated():
		return fl.coreAddr(lv)
	case lv.slot != nil:
		fl.emit(&ir.Instr{Op: ir.OpFrameAddr, Dst: r, Slot: lv.slot, Off: lv.off})
	case lv.isMap:
		fl.emit(&ir.Instr{Op: ir.OpMapPtr, Dst: r, Sym: lv.sym})
	case lv.sym != "":
		fl.emit(&ir.Instr{Op: ir.OpSymAddr, Dst: r, Sym: lv.sym, Off: lv.off})
	case lv.core.relocated():
		return fl.coreAddr(lv)
	case lv.off == 0:
		return lv.base
	default:
		fl.emit(&ir.Instr{Op: ir.OpALU, ALU: ir.Add, Dst: r, A: ir.R(lv.base), B: ir.Imm(lv.off)})
	}
	return r
}

// memBase returns a base register and offset for a load/store of lv.
func (fl *fnLowerer) memBase(lv lvalue) (ir.Reg, int64) {
	switch {
	case lv.slot != nil && lv.core.relocated():
		return fl.coreAddr(lv), 0
	case lv.slot != nil:
		r := fl.tmp()
		fl.emit(&ir.Instr{Op: ir.OpFrameAddr, Dst: r, Slot: lv.slot})
		return r, lv.off
	case lv.sym != "":
		r := fl.tmp()
		fl.emit(&ir.Instr{Op: ir.OpSymAddr, Dst: r, Sym: lv.sym})
		return r, lv.off
	case lv.core.relocated():
		return fl.coreAddr(lv), 0
	}
	return lv.base, lv.off
}

func (lv lvalue) memSpace() ir.Space {
	switch {
	case lv.slot != nil:
		return ir.SpaceStack
	case lv.sym != "":
		return ir.SpaceGlobal
	}
	return lv.space
}

// load reads an lvalue as an rvalue. Aggregates yield their address.
func (fl *fnLowerer) load(lv lvalue) value {
	if lv.reg != nil {
		r := lv.reg.reg
		return value{op: ir.R(r), t: lv.t}
	}
	if isAggregate(lv.t) {
		v := value{op: ir.R(fl.addr(lv)), t: lv.t}
		if a := lv.alignment(); a < align(lv.t) || lv.slot != nil {
			// A stack object's own alignment is known, and may be more
			// than its type's (8 for objects of 8 bytes or more).
			v.align = a
		}
		return v
	}
	if lv.field != nil && lv.field.IsBitfield() {
		return fl.loadBitfield(lv)
	}
	size := scalarSize(lv.t)
	base, off, core := fl.scalarAccess(lv)
	signed := isSigned(lv.t) && size < 4
	if al := lv.alignment(); al < size {
		// A misaligned member of a packed struct: the verifier rejects
		// misaligned stack accesses, so read it in aligned pieces.
		r := fl.loadUnit(base, off, size, al, lv.memSpace())
		switch {
		case signed:
			x := fl.tmp()
			fl.emit(&ir.Instr{Op: ir.OpExt, Dst: x, A: ir.R(r), Bits: size * 8, Signed: true})
			r = x
			fl.setFact(r, fact{sext: size * 8})
		case size < 8:
			fl.setFact(r, fact{zext: size * 8}) // pieces are zero-extending loads
		}
		return value{op: ir.R(r), t: lv.t}
	}
	r := fl.tmp()
	fl.emit(&ir.Instr{Op: ir.OpLoad, Dst: r, A: ir.R(base), Off: off, Size: size, Signed: signed, Space: lv.memSpace(), Core: core, Volatile: lv.volatile || isVolatileType(lv.t)})
	switch {
	case signed:
		fl.setFact(r, fact{sext: size * 8})
	case size < 8:
		fl.setFact(r, fact{zext: size * 8})
	}
	return value{op: ir.R(r), t: lv.t}
}

// store writes v (already converted to lv.t) to lv.
func (fl *fnLowerer) store(lv lvalue, v value) {
	if lv.reg != nil {
		fl.emit(&ir.Instr{Op: ir.OpMov, Dst: lv.reg.reg, A: v.op})
		return
	}
	if isAggregate(lv.t) {
		fl.copyMem(lv, v)
		return
	}
	if lv.field != nil && lv.field.IsBitfield() {
		fl.storeBitfield(lv, v)
		return
	}
	base, off, core := fl.scalarAccess(lv)
	if size := scalarSize(lv.t); lv.alignment() < size {
		fl.storeUnit(base, off, size, lv.alignment(), fl.toReg(v), lv.memSpace())
		return
	}
	op := v.op
	if op.IsImm && (op.Imm < -1<<31 || op.Imm > 1<<31-1) {
		op = ir.R(fl.toReg(v))
	}
	if op.IsImm && op.Imm != 0 && lv.slot != nil && scalarSize(lv.t) < 8 {
		// The verifier remembers a constant spilled from a register at any
		// size, but an immediate store only into an 8-byte aligned slot.
		op = ir.R(fl.toReg(v))
	}
	fl.emit(&ir.Instr{Op: ir.OpStore, A: ir.R(base), B: op, Off: off, Size: scalarSize(lv.t), Space: lv.memSpace(), Core: core,
		Volatile: lv.volatile || isVolatileType(lv.t)})
}

// scalarAccess is memBase for one load or store of a scalar: a relocated
// CO-RE access keeps its base and carries the relocation on the access's
// offset, as clang does (the verifier accepts no arithmetic on some
// pointers, a context pointer among them, before they are dereferenced).
func (fl *fnLowerer) scalarAccess(lv lvalue) (ir.Reg, int64, *ir.CoreReloc) {
	if lv.core.relocated() && lv.sym == "" && lv.alignment() >= scalarSize(lv.t) && fitsInt16(lv.off-lv.core.baseOff) {
		base, off := fl.coreBase(lv)
		return base, off, &ir.CoreReloc{Kind: ir.CoreFieldByteOffset, Type: fl.l.btf.coreRoot(lv.core.root), Access: lv.core.access()}
	}
	base, off := fl.memBase(lv)
	return base, off, nil
}

// storeVar initialises a local from v (converted to the local's type).
func (fl *fnLowerer) storeVar(lv *local, v value) {
	dst := fl.lvalueOfLocal(lv)
	if convertible(lv.typ) {
		v = fl.convert(v, lv.typ)
	}
	fl.store(dst, v)
}

func (fl *fnLowerer) lvalueOfLocal(lv *local) lvalue {
	switch {
	case lv.slot != nil:
		return lvalue{t: lv.typ, slot: lv.slot}
	case lv.ptr != 0:
		return lvalue{t: lv.typ, base: lv.ptr, align: align(lv.typ)}
	}
	return lvalue{t: lv.typ, reg: lv}
}

// copyMem copies an aggregate: v.op holds the source address.
func (fl *fnLowerer) copyMem(dst lvalue, v value) {
	size := typeSize(dst.t)
	src := lvalue{t: dst.t, base: fl.toReg(v)}
	// A packed struct's member may sit at any byte, on either side; the
	// verifier rejects misaligned stack accesses. Between stack objects
	// their own alignment counts, not the type's: a struct of chars
	// copied between 8-aligned slots moves in words, as clang moves it.
	al := dst.alignment()
	if dst.slot == nil {
		al = min(al, align(dst.t))
	}
	if v.align > 0 {
		al = min(al, v.align)
	} else {
		al = min(al, align(dst.t))
	}
	fl.memcpy(dst, src, size, al)
}

// memcpy copies size bytes between two memory lvalues with the widest
// accesses their alignment allows.
func (fl *fnLowerer) memcpy(dst, src lvalue, size int64, al int) {
	db, doff := fl.memBase(dst)
	sb, soff := fl.memBase(src)
	for done := int64(0); done < size; {
		w := chunk(size-done, al)
		r := fl.tmp()
		fl.emit(&ir.Instr{Op: ir.OpLoad, Dst: r, A: ir.R(sb), Off: soff + done, Size: int(w), Space: src.memSpace()})
		fl.emit(&ir.Instr{Op: ir.OpStore, A: ir.R(db), B: ir.R(r), Off: doff + done, Size: int(w), Space: dst.memSpace()})
		done += w
	}
}

// memset stores byte c over size bytes of dst.
func (fl *fnLowerer) memset(dst lvalue, c byte, size int64, al int) {
	db, doff := fl.memBase(dst)
	for done := int64(0); done < size; {
		w := chunk(size-done, al)
		var v int64
		for i := int64(0); i < w; i++ {
			v = v<<8 | int64(c)
		}
		op := ir.Imm(v)
		if w == 8 && (v < -1<<31 || v > 1<<31-1) {
			op = ir.R(fl.toReg(value{op: op}))
		}
		if w == 4 {
			op = ir.Imm(int64(int32(v)))
		}
		fl.emit(&ir.Instr{Op: ir.OpStore, A: ir.R(db), B: op, Off: doff + done, Size: int(w), Space: dst.memSpace()})
		done += w
	}
}

// memsetVar stores a run-time fill byte: the byte is replicated across a
// register by multiplying with 0x0101...01.
func (fl *fnLowerer) memsetVar(dst lvalue, c value, size int64, al int) {
	b := fl.tmp()
	fl.emit(&ir.Instr{Op: ir.OpALU, ALU: ir.And, Dst: b, A: ir.R(fl.toReg(c)), B: ir.Imm(0xff)})
	ones := fl.toReg(value{op: ir.Imm(0x0101010101010101)})
	pat := fl.tmp()
	fl.emit(&ir.Instr{Op: ir.OpALU, ALU: ir.Mul, Dst: pat, A: ir.R(b), B: ir.R(ones)})
	db, doff := fl.memBase(dst)
	for done := int64(0); done < size; {
		w := chunk(size-done, al)
		fl.emit(&ir.Instr{Op: ir.OpStore, A: ir.R(db), B: ir.R(pat), Off: doff + done, Size: int(w), Space: dst.memSpace()})
		done += w
	}
}

// chunk picks the access width for the next piece of a copy.
func chunk(left int64, al int) int64 {
	for _, w := range []int64{8, 4, 2} {
		if left >= w && int64(al) >= w {
			return w
		}
	}
	return 1
}

// convert applies C's conversion of v to type t. The register invariant:
// 8-byte values are exact; 4-byte values are exact in the low 32 bits;
// 1- and 2-byte values are fully sign/zero-extended to 64 bits.
func (fl *fnLowerer) convert(v value, t cc.Type) value {
	if t == nil || v.t == nil {
		return v
	}
	switch {
	case isInt128(t) && !isInt128(v.t) && isScalar(v.t):
		return fl.widen128(v, t)
	case isInt128(v.t) && !isInt128(t) && isScalar(t):
		return fl.narrow128(v, t)
	}
	if isAggregate(t) || t.Kind() == cc.Void {
		return value{op: v.op, t: t, align: v.align}
	}
	if t.Kind() == cc.Bool && v.t.Kind() != cc.Bool {
		b := fl.toBool(v)
		b.t = t
		return b
	}
	if v.op.IsImm {
		return value{op: ir.Imm(truncate(v.op.Imm, t)), t: t}
	}
	from, to := scalarSize(v.t), scalarSize(t)
	if isAggregate(v.t) || v.t.Kind() == cc.Function {
		from = 8
	}
	f := fl.factOf(v.op)
	if from < 4 {
		// 1- and 2-byte values are kept fully extended (see above).
		if isSigned(v.t) {
			f.sext = from * 8
		} else {
			f.zext = from * 8
		}
	}
	switch {
	case to == 8 && from >= 8:
		return value{op: v.op, t: t}
	case to == 8:
		// Widening from 32 bits (or a narrower promoted value).
		if isSigned(v.t) || (from < 4 && f.sext != 0) {
			if f.sext != 0 && f.sext <= 32 {
				return value{op: v.op, t: t}
			}
			return fl.ext(v.op, 32, true, t)
		}
		if f.zext != 0 && f.zext <= 32 {
			return value{op: v.op, t: t}
		}
		return fl.ext(v.op, 32, false, t)
	case to == 4:
		return value{op: v.op, t: t}
	default: // 1 or 2 bytes
		bits := to * 8
		if isSigned(t) {
			if f.sext != 0 && f.sext <= bits || f.zext != 0 && f.zext < bits {
				return value{op: v.op, t: t}
			}
			return fl.ext(v.op, bits, true, t)
		}
		if f.zext != 0 && f.zext <= bits {
			return value{op: v.op, t: t}
		}
		return fl.ext(v.op, bits, false, t)
	}
}

func (fl *fnLowerer) ext(op ir.Operand, bits int, signed bool, t cc.Type) value {
	r := fl.tmp()
	fl.emit(&ir.Instr{Op: ir.OpExt, Dst: r, A: op, Bits: bits, Signed: signed})
	if signed {
		fl.setFact(r, fact{sext: bits})
	} else {
		fl.setFact(r, fact{zext: bits})
	}
	return value{op: ir.R(r), t: t}
}

// toBool yields 0 or 1.
func (fl *fnLowerer) toBool(v value) value {
	bt := fl.boolType(v.t)
	if isInt128(v.t) {
		v = fl.truth128(v)
	}
	if v.op.IsImm {
		if v.op.Imm != 0 {
			return value{op: ir.Imm(1), t: bt}
		}
		return value{op: ir.Imm(0), t: bt}
	}
	w32 := !isAggregate(v.t) && scalarSize(v.t) <= 4
	return fl.materialize(func(t, e *ir.Block) {
		fl.branch(ir.Ne, v.op, ir.Imm(0), w32, t, e)
	}, bt)
}

// materialize turns a branch into a 0/1 value.
func (fl *fnLowerer) materialize(br func(t, e *ir.Block), t cc.Type) value {
	r := fl.tmp()
	yes, no, join := fl.f.NewBlock(), fl.f.NewBlock(), fl.f.NewBlock()
	br(yes, no)
	fl.b = yes
	fl.emit(&ir.Instr{Op: ir.OpMov, Dst: r, A: ir.Imm(1)})
	fl.jump(join)
	fl.b = no
	fl.emit(&ir.Instr{Op: ir.OpMov, Dst: r, A: ir.Imm(0)})
	fl.jump(join)
	fl.b = join
	fl.setFact(r, fact{zext: 1, sext: 2})
	return value{op: ir.R(r), t: t}
}
