package bpfasm

import (
	"github.com/cilium/ebpf/asm"
)

var aluOps = map[string]asm.ALUOp{
	"+=": asm.Add, "-=": asm.Sub, "*=": asm.Mul, "/=": asm.Div, "%=": asm.Mod,
	"|=": asm.Or, "&=": asm.And, "^=": asm.Xor, "<<=": asm.LSh, ">>=": asm.RSh,
	"s>>=": asm.ArSh, "s/=": asm.SDiv, "s%=": asm.SMod,
}

func aluClass(w32 bool) asm.Class {
	if w32 {
		return asm.ALUClass
	}
	return asm.ALU64Class
}

// assignment is every statement that starts with a register: "rD op= x"
// or "rD = ...".
func (a *assembler) assignment(p *parser) error {
	dst, _ := p.reg()
	t := p.next()
	if op, ok := aluOps[t.text]; ok && t.kind == tPunct {
		ins, err := p.aluSource(dst, op)
		if err != nil {
			return err
		}
		a.emit(ins)
		return p.end()
	}
	if t.kind != tPunct || t.text != "=" {
		return p.errorf(t, "expected an assignment operator")
	}
	ins, err := a.rhs(p, dst)
	if err != nil {
		return err
	}
	a.emit(ins)
	return p.end()
}

// aluSource finishes "dst op= rS|imm".
func (p *parser) aluSource(dst reg, op asm.ALUOp) (asm.Instruction, error) {
	class := aluClass(dst.w32)
	if p.isReg() {
		t := p.peek()
		src, _ := p.reg()
		if src.w32 != dst.w32 {
			return asm.Instruction{}, p.errorf(t, "register width differs from %s", dst.text)
		}
		return asm.Instruction{OpCode: asm.OpCode(class).SetALUOp(op).SetSource(asm.RegSource), Dst: dst.r, Src: src.r}, nil
	}
	v, err := p.imm32()
	if err != nil {
		return asm.Instruction{}, err
	}
	return asm.Instruction{OpCode: asm.OpCode(class).SetALUOp(op).SetSource(asm.ImmSource), Dst: dst.r, Constant: v}, nil
}

// rhs parses what follows "dst =".
func (a *assembler) rhs(p *parser, dst reg) (asm.Instruction, error) {
	t := p.peek()
	switch {
	case t.kind == tPunct && t.text == "-" && p.pos+1 < len(p.toks) && p.toks[p.pos+1].kind == tIdent:
		p.next()
		src, err := p.reg()
		if err != nil {
			return asm.Instruction{}, err
		}
		if src != dst {
			return asm.Instruction{}, p.errorf(token{tIdent, src.text}, "negation must be in place (%s = -%s)", dst.text, dst.text)
		}
		return asm.Instruction{OpCode: asm.OpCode(aluClass(dst.w32)).SetALUOp(asm.Neg), Dst: dst.r}, nil
	case t.kind == tPunct && t.text == "*":
		p.next()
		return p.load(dst)
	case t.kind == tPunct && t.text == "(":
		return p.movSX(dst)
	case p.isReg():
		return p.aluSource(dst, asm.Mov)
	case p.isImm():
		return p.movImm(dst)
	case t.kind == tIdent:
		return a.call2(p, dst)
	}
	return asm.Instruction{}, p.errorf(t, "unexpected token")
}

// movImm is "dst = imm" or "dst = imm ll".
func (p *parser) movImm(dst reg) (asm.Instruction, error) {
	start := p.pos
	v, err := p.imm()
	if err != nil {
		return asm.Instruction{}, err
	}
	if p.accept("ll") {
		if dst.w32 {
			return asm.Instruction{}, p.errorf(token{tIdent, dst.text}, "a 64-bit immediate needs a 64-bit register")
		}
		return asm.LoadImm(dst.r, v, asm.DWord), nil
	}
	p.pos = start
	return p.aluSource(dst, asm.Mov)
}

// movSX is "dst = (s8)src" (sign-extending move, -mcpu=v4).
func (p *parser) movSX(dst reg) (asm.Instruction, error) {
	p.next()
	t := p.next()
	var op asm.ALUOp
	switch t.text {
	case "s8":
		op = asm.MovSX8
	case "s16":
		op = asm.MovSX16
	case "s32":
		op = asm.MovSX32
	default:
		return asm.Instruction{}, p.errorf(t, "expected s8, s16 or s32")
	}
	if err := p.expect(")"); err != nil {
		return asm.Instruction{}, err
	}
	return p.aluSource(dst, op)
}

// load is "dst = *(uN *)(rS + off)", a sign-extending "*(sN *)" load, or
// a legacy packet load "*(uN *)skb[imm]" / "*(uN *)skb[rS]".
func (p *parser) load(dst reg) (asm.Instruction, error) {
	if err := p.expect("("); err != nil {
		return asm.Instruction{}, err
	}
	size, signed, err := p.sizeCast()
	if err != nil {
		return asm.Instruction{}, err
	}
	if err := p.expect(")"); err != nil {
		return asm.Instruction{}, err
	}
	if p.accept("skb") {
		return p.packetLoad(size)
	}
	if err := p.expect("("); err != nil {
		return asm.Instruction{}, err
	}
	src, off, err := p.memOff()
	if err != nil {
		return asm.Instruction{}, err
	}
	if err := p.expect(")"); err != nil {
		return asm.Instruction{}, err
	}
	if signed {
		return asm.LoadMemSX(dst.r, src.r, off, size), nil
	}
	return asm.LoadMem(dst.r, src.r, off, size), nil
}

func (p *parser) packetLoad(size asm.Size) (asm.Instruction, error) {
	if err := p.expect("["); err != nil {
		return asm.Instruction{}, err
	}
	var ins asm.Instruction
	if p.isReg() {
		src, _ := p.reg()
		ins = asm.LoadInd(asm.R0, src.r, 0, size)
		ins.Dst = 0
	} else {
		v, err := p.imm32()
		if err != nil {
			return asm.Instruction{}, err
		}
		ins = asm.LoadAbs(int32(v), size)
		ins.Dst = 0
	}
	return ins, p.expect("]")
}

// call2 handles the "dst = word(...)" and "dst = sym ll" forms.
func (a *assembler) call2(p *parser, dst reg) (asm.Instruction, error) {
	t := p.next()
	switch t.text {
	case "be16", "be32", "be64", "le16", "le32", "le64", "bswap16", "bswap32", "bswap64":
		return p.swap(dst, t)
	case "atomic_fetch_add", "atomic_fetch_and", "atomic_fetch_or", "atomic_fetch_xor":
		return p.atomicFetch(dst, t)
	case "xchg_64", "xchg32_32", "cmpxchg_64", "cmpxchg32_32":
		return p.xchg(dst, t)
	case "addr_space_cast":
		return p.addrSpaceCast(dst)
	}
	if !p.accept("ll") {
		return asm.Instruction{}, p.errorf(t, "unknown operand (a symbol needs \"ll\": %s = %s ll)", dst.text, t.text)
	}
	if dst.w32 {
		return asm.Instruction{}, p.errorf(token{tIdent, dst.text}, "a 64-bit immediate needs a 64-bit register")
	}
	return asm.LoadImm(dst.r, 0, asm.DWord).WithReference(t.text), nil
}

// swap is "dst = be16 dst", "le32", "bswap64", ...
func (p *parser) swap(dst reg, t token) (asm.Instruction, error) {
	src, err := p.reg()
	if err != nil {
		return asm.Instruction{}, err
	}
	if src != dst {
		return asm.Instruction{}, p.errorf(token{tIdent, src.text}, "byte swap must be in place")
	}
	var bits int64
	switch t.text[len(t.text)-2:] {
	case "16":
		bits = 16
	case "32":
		bits = 32
	default:
		bits = 64
	}
	op := asm.OpCode(asm.ALUClass).SetALUOp(asm.Swap)
	switch t.text[:2] {
	case "be":
		op = op.SetSource(asm.Source(asm.BE))
	case "le":
		op = op.SetSource(asm.Source(asm.LE))
	default:
		op = asm.OpCode(asm.ALU64Class).SetALUOp(asm.Swap)
	}
	return asm.Instruction{OpCode: op, Dst: dst.r, Constant: bits}, nil
}
