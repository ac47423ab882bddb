package dwarfvars

import (
	"debug/dwarf"
	"fmt"
	"slices"
)

// The symbolic evaluator. delve's op.ExecuteStackProgram needs concrete
// register values and rejects DW_OP_entry_value, addrx and convert; a
// compiler needs the opposite: each stack slot is a Fetch (how a probe
// computes the value), and the result says whether the object is that value,
// memory at that address, or a set of pieces.

// evalCtx is what evaluating one location expression needs.
type evalCtx struct {
	b         *Binary
	cu        *cuInfo
	pc        uint64
	frameBase func() (*Fetch, error) // value of DW_AT_frame_base at pc
	err       func(op, reason string) error
	regErr    func(reg int) error

	// caller is set while evaluating a call site's value in the caller's
	// frame (callsite.go): reg and cfaFn then recover the caller's
	// registers and CFA from the callee's state, and probePC is the probe
	// site, which static storage is rebased on.
	caller  bool
	reg     func(reg int) (*Fetch, error)
	cfaFn   func() (*Fetch, error)
	probePC uint64
	// entryPC is the containing function's entry (0 when unknown).
	entryPC uint64
}

// Opcodes handled by the evaluator (DWARF 5 section 7.7.1, GNU extensions).
const (
	opAddr           = 0x03
	opDeref          = 0x06
	opConst1u        = 0x08
	opConst8s        = 0x0f
	opConstu         = 0x10
	opConsts         = 0x11
	opDup            = 0x12
	opDrop           = 0x13
	opOver           = 0x14
	opPick           = 0x15
	opSwap           = 0x16
	opRot            = 0x17
	opAbs            = 0x19
	opAnd            = 0x1a
	opDiv            = 0x1b
	opMinus          = 0x1c
	opMod            = 0x1d
	opMul            = 0x1e
	opNeg            = 0x1f
	opNot            = 0x20
	opOr             = 0x21
	opPlus           = 0x22
	opPlusUconst     = 0x23
	opShl            = 0x24
	opShr            = 0x25
	opShra           = 0x26
	opXor            = 0x27
	opBra            = 0x28
	opEq             = 0x29
	opNe             = 0x2e
	opSkip           = 0x2f
	opLit0           = 0x30
	opReg0           = 0x50
	opBreg0          = 0x70
	opRegx           = 0x90
	opFbreg          = 0x91
	opBregx          = 0x92
	opPiece          = 0x93
	opDerefSize      = 0x94
	opNop            = 0x96
	opCallFrameCFA   = 0x9c
	opBitPiece       = 0x9d
	opImplicitValue  = 0x9e
	opStackValue     = 0x9f
	opAddrx          = 0xa1
	opConstx         = 0xa2
	opEntryValue     = 0xa3
	opConstType      = 0xa4
	opRegvalType     = 0xa5
	opDerefType      = 0xa6
	opConvert        = 0xa8
	opReinterpret    = 0xa9
	opGNUEntryValue  = 0xf3
	opGNUConstType   = 0xf4
	opGNURegvalType  = 0xf5
	opGNUDerefType   = 0xf6
	opGNUConvert     = 0xf7
	opGNUReinterpret = 0xf9
	opGNUAddrIndex   = 0xfb
	opGNUConstIndex  = 0xfc
)

var binOps = map[byte]Op{opAnd: OpAnd, opDiv: OpDiv, opMinus: OpSub, opMod: OpMod, opMul: OpMul,
	opOr: OpOr, opPlus: OpAdd, opShl: OpShl, opShr: OpShr, opShra: OpShra, opXor: OpXor,
	0x29: OpEq, 0x2a: OpGe, 0x2b: OpGt, 0x2c: OpLe, 0x2d: OpLt, 0x2e: OpNe}

// slot is one symbolic stack entry: a value and its DWARF type (size 0 is
// the generic address-sized type).
type slot struct {
	f      *Fetch
	size   int
	signed bool
}

// pieceState accumulates one simple location description.
type pieceState struct {
	stack    []slot
	reg      int // DW_OP_regN seen (register location), else -1
	stackVal bool
	implicit []byte
}

// eval turns expr, the location of an object of objSize bytes, into a
// Location at ctx.pc.
func (ctx *evalCtx) eval(expr []byte, objSize int) (Location, error) {
	if len(expr) == 0 {
		return Location{Kind: LocOptimizedOut, Size: objSize}, nil
	}
	r := &byteReader{data: expr, order: ctx.b.order}
	st := pieceState{reg: -1}
	var pieces []Piece
	off := 0
	for !r.done() {
		op := r.u8()
		if op == opPiece || op == opBitPiece {
			size := int(r.uleb())
			if op == opBitPiece {
				bitOff := r.uleb()
				if size%8 != 0 || bitOff != 0 {
					return Location{}, ctx.err("DW_OP_bit_piece", "bit-sized pieces")
				}
				size /= 8
			}
			loc, err := ctx.finish(&st, size)
			if err != nil {
				return Location{}, err
			}
			pieces = append(pieces, Piece{Offset: off, Size: size, Loc: loc})
			off += size
			st = pieceState{reg: -1}
			continue
		}
		if op == opBra {
			if err := ctx.branch(expr, r, &st); err != nil {
				return Location{}, err
			}
			continue
		}
		if err := ctx.step(op, r, &st); err != nil {
			return Location{}, err
		}
		if r.err != nil {
			return Location{}, ctx.err(opName(op), "truncated operand")
		}
	}
	if r.err != nil {
		return Location{}, ctx.err("", "truncated expression")
	}
	if len(pieces) > 0 {
		return Location{Kind: LocPieces, Size: max(objSize, off), Pieces: pieces}, nil
	}
	return ctx.finish(&st, objSize)
}

// branch evaluates a forward DW_OP_bra: gcc folds MIN() and ?: into a
// location as `lt; bra +1; swap; drop` (zstd's ZSTD_ldm_getTableSize). Both
// ways are evaluated, the one falling through on a copy of the stack, up to
// the branch's target, where the stacks must have one depth: each entry
// that differs becomes a select of the two by the condition, computed
// without a branch (y ^ ((x ^ y) & -(c != 0))), so the Fetch stays
// straight-line. A backward branch (a loop) stays refused.
func (ctx *evalCtx) branch(expr []byte, r *byteReader, st *pieceState) error {
	off := int16(r.fixed(2))
	if r.err != nil {
		return ctx.err("DW_OP_bra", "truncated operand")
	}
	cond, ok := st.pop()
	if !ok {
		return ctx.err("DW_OP_bra", "stack underflow")
	}
	target := r.pos + int(off)
	if off < 0 || target > len(expr) {
		return ctx.err("DW_OP_bra", "a backward branch (a loop in the expression)")
	}
	fall := pieceState{stack: slices.Clone(st.stack), reg: st.reg, stackVal: st.stackVal, implicit: st.implicit}
	sub := &byteReader{data: expr[:target], pos: r.pos, order: r.order}
	for !sub.done() {
		op := sub.u8()
		switch op {
		case opBra, opSkip, opPiece, opBitPiece:
			return ctx.err("DW_OP_bra", "a branch over "+opName(op))
		}
		if err := ctx.step(op, sub, &fall); err != nil {
			return err
		}
	}
	if sub.err != nil {
		return ctx.err("DW_OP_bra", "truncated expression")
	}
	if len(fall.stack) != len(st.stack) || fall.reg != st.reg || fall.stackVal != st.stackVal || fall.implicit != nil {
		return ctx.err("DW_OP_bra", "the two ways leave different stacks")
	}
	taken := pieceState{stack: slices.Clone(st.stack)}
	for i := range fall.stack {
		x, y := taken.stack[i], fall.stack[i]
		if x.f == y.f {
			continue
		}
		mask := cond.f.then(Step{Op: OpNe}).then(Step{Op: OpNeg})
		diff := x.f.then(Step{Op: OpXor, Arg: y.f}).then(Step{Op: OpAnd, Arg: mask})
		st.stack[i] = slot{f: y.f.then(Step{Op: OpXor, Arg: diff}), size: y.size, signed: y.signed}
	}
	r.pos = target
	return nil
}

// finish closes a simple location description.
func (ctx *evalCtx) finish(st *pieceState, size int) (Location, error) {
	switch {
	case st.reg >= 0 && ctx.reg != nil:
		f, err := ctx.reg(st.reg)
		if err != nil {
			return Location{}, err
		}
		return Location{Kind: LocValue, Fetch: f, Size: size}, nil
	case st.reg >= 0:
		return Location{Kind: LocValue, Fetch: &Fetch{Start: Source{Kind: SrcReg, Reg: st.reg, RegsOff: ptRegsOff[st.reg]}}, Size: size}, nil
	case st.implicit != nil:
		if len(st.implicit) > 8 {
			return Location{}, ctx.err("DW_OP_implicit_value", "constant wider than 8 bytes")
		}
		var v uint64
		for i := len(st.implicit) - 1; i >= 0; i-- {
			v = v<<8 | uint64(st.implicit[i])
		}
		return Location{Kind: LocValue, Fetch: &Fetch{Start: Source{Kind: SrcConst, Value: v}}, Size: size}, nil
	case len(st.stack) == 0:
		return Location{Kind: LocOptimizedOut, Size: size}, nil
	case st.stackVal:
		return Location{Kind: LocValue, Fetch: st.stack[len(st.stack)-1].f, Size: size}, nil
	}
	return Location{Kind: LocMemory, Fetch: st.stack[len(st.stack)-1].f, Size: size}, nil
}

func (st *pieceState) push(f *Fetch) { st.stack = append(st.stack, slot{f: f}) }

func (st *pieceState) pop() (slot, bool) {
	if len(st.stack) == 0 {
		return slot{}, false
	}
	s := st.stack[len(st.stack)-1]
	st.stack = st.stack[:len(st.stack)-1]
	return s, true
}

func constFetch(v uint64) *Fetch { return &Fetch{Start: Source{Kind: SrcConst, Value: v}} }

// step evaluates one operation.
func (ctx *evalCtx) step(op byte, r *byteReader, st *pieceState) error {
	under := func() error { return ctx.err(opName(op), "stack underflow") }
	switch {
	case op >= opLit0 && op < opLit0+32:
		st.push(constFetch(uint64(op - opLit0)))
	case op >= opConst1u && op <= opConst8s:
		n := 1 << ((op - opConst1u) / 2)
		v := r.fixed(n)
		if (op-opConst1u)%2 == 1 && n < 8 { // signed
			v = uint64(int64(v<<(64-8*n)) >> (64 - 8*n))
		}
		st.push(constFetch(v))
	case op == opConstu:
		st.push(constFetch(r.uleb()))
	case op == opConsts:
		st.push(constFetch(uint64(r.sleb())))
	case op == opAddr:
		st.push(ctx.static(r.u64()))
	case op == opAddrx || op == opGNUAddrIndex:
		a, err := ctx.b.addrx(ctx.cu, r.uleb())
		if err != nil {
			return ctx.err(opName(op), err.Error())
		}
		st.push(ctx.static(a))
	case op == opConstx || op == opGNUConstIndex:
		return ctx.err(opName(op), "thread-local storage")
	case op >= opReg0 && op < opReg0+32, op == opRegx:
		reg := int(op - opReg0)
		if op == opRegx {
			reg = int(r.uleb())
		}
		if _, ok := RegsOffset(reg); !ok {
			return ctx.regErr(reg)
		}
		st.reg = reg
	case op >= opBreg0 && op < opBreg0+32, op == opBregx:
		reg := int(op - opBreg0)
		if op == opBregx {
			reg = int(r.uleb())
		}
		off := r.sleb()
		f, err := ctx.regFetch(reg)
		if err != nil {
			return err
		}
		st.push(f.then(Step{Op: OpAdd, Imm: off}))
	case op == opFbreg:
		off := r.sleb()
		fb, err := ctx.frameBase()
		if err != nil {
			return err
		}
		st.push(fb.then(Step{Op: OpAdd, Imm: off}))
	case op == opCallFrameCFA:
		f, err := ctx.cfa()
		if err != nil {
			return err
		}
		st.push(f)
	case op == opDeref || op == opDerefSize || op == opDerefType || op == opGNUDerefType:
		size := 8
		if op != opDeref {
			size = int(r.u8())
		}
		var ty [2]int
		if op == opDerefType || op == opGNUDerefType {
			sz, sg, err := ctx.baseType(r.uleb())
			if err != nil {
				return err
			}
			ty = [2]int{sz, b2n(sg)}
		}
		if size < 1 || size > 8 || size&(size-1) != 0 {
			return ctx.err(opName(op), fmt.Sprintf("read of %d bytes", size))
		}
		s, ok := st.pop()
		if !ok {
			return under()
		}
		v := slot{f: s.f.then(Step{Op: OpDeref, Size: size})}
		if ty[0] > 0 {
			v.size, v.signed = ty[0], ty[1] == 1
			v.f = extend(v.f, size, v.signed)
		}
		st.stack = append(st.stack, v)
	case op == opDup || op == opOver || op == opPick:
		idx := 0
		if op == opOver {
			idx = 1
		} else if op == opPick {
			idx = int(r.u8())
		}
		if idx >= len(st.stack) {
			return under()
		}
		st.stack = append(st.stack, st.stack[len(st.stack)-1-idx])
	case op == opDrop:
		if _, ok := st.pop(); !ok {
			return under()
		}
	case op == opSwap:
		n := len(st.stack)
		if n < 2 {
			return under()
		}
		st.stack[n-1], st.stack[n-2] = st.stack[n-2], st.stack[n-1]
	case op == opRot:
		n := len(st.stack)
		if n < 3 {
			return under()
		}
		st.stack[n-1], st.stack[n-2], st.stack[n-3] = st.stack[n-2], st.stack[n-3], st.stack[n-1]
	case binOps[op] != 0:
		b, ok1 := st.pop()
		a, ok2 := st.pop()
		if !ok1 || !ok2 {
			return under()
		}
		st.stack = append(st.stack, slot{f: binop(binOps[op], a, b), size: a.size, signed: a.signed})
	case op == opNeg || op == opNot:
		a, ok := st.pop()
		if !ok {
			return under()
		}
		o := OpNeg
		if op == opNot {
			o = OpNot
		}
		st.stack = append(st.stack, slot{f: a.f.then(Step{Op: o}), size: a.size, signed: a.signed})
	case op == opPlusUconst:
		a, ok := st.pop()
		if !ok {
			return under()
		}
		st.stack = append(st.stack, slot{f: a.f.then(Step{Op: OpAdd, Imm: int64(r.uleb())}), size: a.size, signed: a.signed})
	case op == opNop:
	case op == opStackValue:
		st.stackVal = true
	case op == opImplicitValue:
		n := r.uleb()
		if n > uint64(len(r.data)) {
			return ctx.err(opName(op), "truncated operand")
		}
		st.implicit = r.bytes(int(n))
		if st.implicit == nil {
			st.implicit = []byte{}
		}
	case op == opGNUParameterRef:
		f, err := ctx.parameterRef(r.fixed(4))
		if err != nil {
			return err
		}
		st.push(f)
	case op == opEntryValue || op == opGNUEntryValue:
		if ctx.caller {
			return ctx.err(opName(op), "the caller's own entry value")
		}
		n := r.uleb()
		if n > uint64(len(r.data)) {
			return ctx.err(opName(op), "truncated operand")
		}
		blk := r.bytes(int(n))
		reg, ok := entryReg(blk)
		if !ok {
			if vr, ok := regvalReg(blk); ok && isVectorReg(vr) {
				// gcc: DW_OP_entry_value(DW_OP_regval_type xmmN, float).
				err := ctx.regErr(vr)
				if ue, ok := err.(*UnsupportedError); ok {
					ue.Reason = "its value at function entry; XMM registers are not in pt_regs"
				}
				return err
			}
			return ctx.err(opName(op), "entry value of a non-register expression")
		}
		off, ok := RegsOffset(reg)
		if !ok {
			return ctx.regErr(reg)
		}
		st.push(&Fetch{Start: Source{Kind: SrcEntryValue, Reg: reg, RegsOff: off}})
	case op == opConvert || op == opGNUConvert || op == opReinterpret || op == opGNUReinterpret:
		sz, sg, err := ctx.baseType(r.uleb())
		if err != nil {
			return err
		}
		a, ok := st.pop()
		if !ok {
			return under()
		}
		if op == opConvert || op == opGNUConvert {
			a.f = convert(a, sz, sg)
		}
		st.stack = append(st.stack, slot{f: a.f, size: sz, signed: sg})
	case op == opConstType || op == opGNUConstType:
		sz, sg, err := ctx.baseType(r.uleb())
		if err != nil {
			return err
		}
		n := int(r.u8())
		if n > 8 {
			return ctx.err(opName(op), "constant wider than 8 bytes")
		}
		v := r.fixed(n)
		st.stack = append(st.stack, slot{f: extend(constFetch(v), n, sg), size: sz, signed: sg})
	case op == opRegvalType || op == opGNURegvalType:
		reg := int(r.uleb())
		sz, sg, err := ctx.baseType(r.uleb())
		if err != nil {
			return err
		}
		f, err := ctx.regFetch(reg)
		if err != nil {
			return err
		}
		st.stack = append(st.stack, slot{f: extend(f, sz, sg), size: sz, signed: sg})
	default:
		return ctx.err(opName(op), "")
	}
	return nil
}

func b2n(b bool) int {
	if b {
		return 1
	}
	return 0
}

// entryReg recognises DW_OP_entry_value's usual block, one register.
func entryReg(blk []byte) (int, bool) {
	if len(blk) == 1 && blk[0] >= opReg0 && blk[0] < opReg0+32 {
		return int(blk[0] - opReg0), true
	}
	if len(blk) >= 2 && blk[0] == opRegx {
		r := &byteReader{data: blk[1:]}
		reg := r.uleb()
		if r.err == nil && r.done() {
			return int(reg), true
		}
	}
	return 0, false
}

// regvalReg recognises a block that is one DW_OP_regval_type (or its GNU
// form) and returns its register.
func regvalReg(blk []byte) (int, bool) {
	if len(blk) < 3 || blk[0] != 0xa5 && blk[0] != 0xf5 {
		return 0, false
	}
	r := &byteReader{data: blk[1:]}
	reg := r.uleb()
	r.uleb()
	if r.err != nil || !r.done() {
		return 0, false
	}
	return int(reg), true
}

// binop combines two slots with op; constants become immediates.
func binop(op Op, a, b slot) *Fetch {
	if _, ok := a.f.IsConst(); ok {
		if _, ok := b.f.IsConst(); !ok && (op == OpAdd || op == OpMul || op == OpAnd || op == OpOr || op == OpXor) {
			a, b = b, a
		}
	}
	if c, ok := b.f.IsConst(); ok {
		if op == OpShra && a.size > 0 && a.size < 8 && !a.signed {
			return a.f.then(Step{Op: OpShr, Imm: int64(c)})
		}
		return a.f.then(Step{Op: op, Imm: int64(c)})
	}
	return a.f.then(Step{Op: op, Arg: b.f})
}

// convert models DW_OP_convert of a value of type from to size/signed.
func convert(from slot, size int, signed bool) *Fetch {
	f := from.f
	if size > 0 && size < 8 && (from.size == 0 || size < from.size) {
		return extend(f, size, signed) // truncate, then canonical extension
	}
	if from.size > 0 && from.size < 8 {
		return extend(f, from.size, from.signed)
	}
	return f
}

// extend sign- or zero-extends the low size bytes of f to 64 bits.
func extend(f *Fetch, size int, signed bool) *Fetch {
	if size <= 0 || size >= 8 {
		return f
	}
	if c, ok := f.IsConst(); ok {
		sh := uint(64 - 8*size)
		if signed {
			return constFetch(uint64(int64(c<<sh) >> sh))
		}
		return constFetch(c << sh >> sh)
	}
	if signed {
		sh := int64(64 - 8*size)
		return f.then(Step{Op: OpShl, Imm: sh}).then(Step{Op: OpShra, Imm: sh})
	}
	return f.then(Step{Op: OpAnd, Imm: int64(uint64(1)<<(8*size) - 1)})
}

// baseType reads the base type DIE at a unit-relative offset (0: generic).
func (ctx *evalCtx) baseType(rel uint64) (int, bool, error) {
	if rel == 0 {
		return 0, false, nil
	}
	e, err := ctx.b.entryAt(ctx.cu.hdr.start + dwarf.Offset(rel))
	if err != nil || e.Tag != dwarf.TagBaseType {
		return 0, false, ctx.err("DW_OP_convert", "operand is not a base type")
	}
	sz, _ := e.Val(dwarf.AttrByteSize).(int64)
	enc, _ := e.Val(dwarf.AttrEncoding).(int64)
	// DW_ATE_signed (5), DW_ATE_signed_char (6), DW_ATE_float (4) count as signed.
	return int(sz), enc == 5 || enc == 6 || enc == 4, nil
}

// static is DW_OP_addr: a link-time address, rebased on ctx->ip at run time.
func (ctx *evalCtx) static(a uint64) *Fetch {
	pc := ctx.pc
	if ctx.probePC != 0 {
		pc = ctx.probePC
	}
	return &Fetch{Start: Source{Kind: SrcAddr, Value: a, Offset: int64(a - pc)}}
}

// regFetch reads a general-purpose register.
func (ctx *evalCtx) regFetch(reg int) (*Fetch, error) {
	if ctx.reg != nil {
		return ctx.reg(reg)
	}
	off, ok := RegsOffset(reg)
	if !ok {
		return nil, ctx.regErr(reg)
	}
	return &Fetch{Start: Source{Kind: SrcReg, Reg: reg, RegsOff: off}}, nil
}

// cfa returns the CFA at ctx.pc from the CFI rule.
func (ctx *evalCtx) cfa() (*Fetch, error) {
	if ctx.cfaFn != nil {
		return ctx.cfaFn()
	}
	src, err := ctx.b.cfaAt(ctx.pc)
	if err != nil {
		return nil, ctx.err("DW_OP_call_frame_cfa", err.Error())
	}
	return &Fetch{Start: src}, nil
}

var opNameTable = map[byte]string{
	0x03: "DW_OP_addr", 0x06: "DW_OP_deref", 0x12: "DW_OP_dup", 0x18: "DW_OP_xderef", 0x19: "DW_OP_abs",
	0x28: "DW_OP_bra", 0x2f: "DW_OP_skip", 0x90: "DW_OP_regx", 0x91: "DW_OP_fbreg", 0x92: "DW_OP_bregx",
	0x93: "DW_OP_piece", 0x94: "DW_OP_deref_size", 0x95: "DW_OP_xderef_size", 0x96: "DW_OP_nop",
	0x97: "DW_OP_push_object_address", 0x98: "DW_OP_call2", 0x99: "DW_OP_call4", 0x9a: "DW_OP_call_ref",
	0x9b: "DW_OP_form_tls_address", 0x9c: "DW_OP_call_frame_cfa", 0x9d: "DW_OP_bit_piece",
	0x9e: "DW_OP_implicit_value", 0x9f: "DW_OP_stack_value", 0xa0: "DW_OP_implicit_pointer",
	0xa1: "DW_OP_addrx", 0xa2: "DW_OP_constx", 0xa3: "DW_OP_entry_value", 0xa4: "DW_OP_const_type",
	0xa5: "DW_OP_regval_type", 0xa6: "DW_OP_deref_type", 0xa7: "DW_OP_xderef_type", 0xa8: "DW_OP_convert",
	0xa9: "DW_OP_reinterpret", 0xe0: "DW_OP_GNU_push_tls_address", 0xf0: "DW_OP_GNU_uninit",
	0xf1: "DW_OP_GNU_encoded_addr", 0xf2: "DW_OP_GNU_implicit_pointer", 0xf3: "DW_OP_GNU_entry_value",
	0xf4: "DW_OP_GNU_const_type", 0xf5: "DW_OP_GNU_regval_type", 0xf6: "DW_OP_GNU_deref_type",
	0xf7: "DW_OP_GNU_convert", 0xf9: "DW_OP_GNU_reinterpret", 0xfa: "DW_OP_GNU_parameter_ref",
	0xfb: "DW_OP_GNU_addr_index", 0xfc: "DW_OP_GNU_const_index", 0xfd: "DW_OP_GNU_variable_value",
}

// opName names a DWARF expression opcode.
func opName(op byte) string {
	if n, ok := opNameTable[op]; ok {
		return n
	}
	switch {
	case op >= opLit0 && op < opLit0+32:
		return fmt.Sprintf("DW_OP_lit%d", op-opLit0)
	case op >= opReg0 && op < opReg0+32:
		return fmt.Sprintf("DW_OP_reg%d", op-opReg0)
	case op >= opBreg0 && op < opBreg0+32:
		return fmt.Sprintf("DW_OP_breg%d", op-opBreg0)
	}
	names := map[byte]string{0x08: "const1u", 0x09: "const1s", 0x0a: "const2u", 0x0b: "const2s",
		0x0c: "const4u", 0x0d: "const4s", 0x0e: "const8u", 0x0f: "const8s", 0x10: "constu", 0x11: "consts",
		0x13: "drop", 0x14: "over", 0x15: "pick", 0x16: "swap", 0x17: "rot", 0x1a: "and", 0x1b: "div",
		0x1c: "minus", 0x1d: "mod", 0x1e: "mul", 0x1f: "neg", 0x20: "not", 0x21: "or", 0x22: "plus",
		0x23: "plus_uconst", 0x24: "shl", 0x25: "shr", 0x26: "shra", 0x27: "xor", 0x29: "eq", 0x2a: "ge",
		0x2b: "gt", 0x2c: "le", 0x2d: "lt", 0x2e: "ne"}
	if n, ok := names[op]; ok {
		return "DW_OP_" + n
	}
	return fmt.Sprintf("DW_OP_%#02x", op)
}
