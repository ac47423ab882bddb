package bpfasm

import (
	"github.com/cilium/ebpf/asm"
)

// memRef reads "(uN *)(rD + off)", the destination of a store or atomic.
func (p *parser) memRef() (asm.Size, reg, int16, error) {
	if err := p.expect("("); err != nil {
		return 0, reg{}, 0, err
	}
	t := p.peek()
	size, signed, err := p.sizeCast()
	if err != nil {
		return 0, reg{}, 0, err
	}
	if signed {
		return 0, reg{}, 0, p.errorf(t, "a store or atomic takes an unsigned size")
	}
	if err := p.expect(")"); err != nil {
		return 0, reg{}, 0, err
	}
	if err := p.expect("("); err != nil {
		return 0, reg{}, 0, err
	}
	base, off, err := p.memOff()
	if err != nil {
		return 0, reg{}, 0, err
	}
	return size, base, off, p.expect(")")
}

// store is "*(uN *)(rD + off) = rS|wS|imm".
func (a *assembler) store(p *parser) error {
	p.next()
	size, base, off, err := p.memRef()
	if err != nil {
		return err
	}
	if err := p.expect("="); err != nil {
		return err
	}
	if p.isReg() {
		src, _ := p.reg()
		a.emit(asm.StoreMem(base.r, off, src.r, size))
		return p.end()
	}
	v, err := p.imm32()
	if err != nil {
		return err
	}
	// Not asm.StoreImm, which refuses 64-bit stores of a (sign-extended)
	// 32-bit immediate.
	a.emit(asm.Instruction{OpCode: asm.StoreImmOp(size), Dst: base.r, Offset: off, Constant: v})
	return p.end()
}

var lockOps = map[string]asm.AtomicOp{
	"+=": asm.AddAtomic, "&=": asm.AndAtomic, "|=": asm.OrAtomic, "^=": asm.XorAtomic,
}

// lock is "lock *(uN *)(rD + off) op= rS".
func (a *assembler) lock(p *parser) error {
	if err := p.expect("*"); err != nil {
		return err
	}
	size, base, off, err := p.memRef()
	if err != nil {
		return err
	}
	t := p.next()
	op, ok := lockOps[t.text]
	if !ok {
		return p.errorf(t, "expected +=, &=, |= or ^=")
	}
	src, err := p.reg()
	if err != nil {
		return err
	}
	if err := atomicSize(p, size); err != nil {
		return err
	}
	a.emit(atomicInsn(op, base.r, src.r, size, off))
	return p.end()
}

func atomicSize(p *parser, size asm.Size) error {
	if size != asm.Word && size != asm.DWord {
		return p.errorf(p.peek(), "atomic operations are 32 or 64 bits wide")
	}
	return nil
}

var fetchOps = map[string]asm.AtomicOp{
	"atomic_fetch_add": asm.FetchAdd, "atomic_fetch_and": asm.FetchAnd,
	"atomic_fetch_or": asm.FetchOr, "atomic_fetch_xor": asm.FetchXor,
}

// atomicFetch is "rS = atomic_fetch_OP((uN *)(rD + off), rS)".
func (p *parser) atomicFetch(dst reg, t token) (asm.Instruction, error) {
	if err := p.expect("("); err != nil {
		return asm.Instruction{}, err
	}
	size, base, off, err := p.memRef()
	if err != nil {
		return asm.Instruction{}, err
	}
	if err := p.expect(","); err != nil {
		return asm.Instruction{}, err
	}
	src, err := p.reg()
	if err != nil {
		return asm.Instruction{}, err
	}
	if src != dst {
		return asm.Instruction{}, p.errorf(token{tIdent, src.text}, "%s fetches into its source register (%s)", t.text, dst.text)
	}
	if err := atomicSize(p, size); err != nil {
		return asm.Instruction{}, err
	}
	return atomicInsn(fetchOps[t.text], base.r, src.r, size, off), p.expect(")")
}

// xchg is "rS = xchg_64(rD + off, rS)", "wS = xchg32_32(...)",
// "r0 = cmpxchg_64(rD + off, r0, rS)" or "w0 = cmpxchg32_32(...)".
func (p *parser) xchg(dst reg, t token) (asm.Instruction, error) {
	size := asm.DWord
	if t.text == "xchg32_32" || t.text == "cmpxchg32_32" {
		size = asm.Word
	}
	if err := p.expect("("); err != nil {
		return asm.Instruction{}, err
	}
	base, off, err := p.memOff()
	if err != nil {
		return asm.Instruction{}, err
	}
	if err := p.expect(","); err != nil {
		return asm.Instruction{}, err
	}
	src, err := p.reg()
	if err != nil {
		return asm.Instruction{}, err
	}
	op := asm.Xchg
	if t.text[0] == 'c' {
		if src.r != asm.R0 || dst.r != asm.R0 {
			return asm.Instruction{}, p.errorf(token{tIdent, src.text}, "cmpxchg compares with and returns into r0")
		}
		if err := p.expect(","); err != nil {
			return asm.Instruction{}, err
		}
		if src, err = p.reg(); err != nil {
			return asm.Instruction{}, err
		}
		op = asm.CmpXchg
	} else if src != dst {
		return asm.Instruction{}, p.errorf(token{tIdent, src.text}, "xchg returns into its source register (%s)", dst.text)
	}
	return atomicInsn(op, base.r, src.r, size, off), p.expect(")")
}

// atomicInsn is op.Mem with the operation also in Constant: cilium/ebpf
// v0.22 marshals the immediate from Constant (as its Unmarshal leaves it),
// not from the opcode's atomic bits.
func atomicInsn(op asm.AtomicOp, base, src asm.Register, size asm.Size, off int16) asm.Instruction {
	ins := op.Mem(base, src, size, off)
	ins.Constant = int64(op >> 8)
	return ins
}
