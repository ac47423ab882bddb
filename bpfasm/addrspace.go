package bpfasm

import "github.com/cilium/ebpf/asm"

// addr_space_cast (arena pointers, -mcpu=v4's ISA) is a 64-bit register
// mov with offset 1 and the address spaces in the immediate:
// dst_as << 16 | src_as. cilium/ebpf's asm.Instruction holds the offset
// but its Marshal writes 0 for a plain mov, so the ELF writer puts the
// offset back (see IsAddrSpaceCast).

// addrSpaceCastOffset is the mov offset that makes it addr_space_cast.
const addrSpaceCastOffset = 1

// AddrSpaceCast returns "dst = addr_space_cast(src, dstAS, srcAS)".
func AddrSpaceCast(dst, src asm.Register, dstAS, srcAS uint16) asm.Instruction {
	return asm.Instruction{OpCode: asm.Mov.Op(asm.RegSource), Dst: dst, Src: src,
		Offset: addrSpaceCastOffset, Constant: int64(dstAS)<<16 | int64(srcAS)}
}

// IsAddrSpaceCast reports an addr_space_cast instruction.
func IsAddrSpaceCast(ins asm.Instruction) bool {
	return ins.OpCode == asm.Mov.Op(asm.RegSource) && ins.Offset == addrSpaceCastOffset
}

// addrSpaceCast parses "addr_space_cast(src, DST_AS, SRC_AS)" after
// "dst =".
func (p *parser) addrSpaceCast(dst reg) (asm.Instruction, error) {
	if dst.w32 {
		return asm.Instruction{}, p.errorf(token{tIdent, dst.text}, "addr_space_cast needs a 64-bit register")
	}
	if err := p.expect("("); err != nil {
		return asm.Instruction{}, err
	}
	src, err := p.reg()
	if err != nil {
		return asm.Instruction{}, err
	}
	if src.w32 {
		return asm.Instruction{}, p.errorf(token{tIdent, src.text}, "addr_space_cast needs a 64-bit register")
	}
	var as [2]uint16
	for i := range as {
		if err := p.expect(","); err != nil {
			return asm.Instruction{}, err
		}
		t := p.peek()
		v, err := p.number()
		if err != nil {
			return asm.Instruction{}, err
		}
		if v < 0 || v > 0xffff {
			return asm.Instruction{}, p.errorf(t, "address space %d out of range", v)
		}
		as[i] = uint16(v)
	}
	if err := p.expect(")"); err != nil {
		return asm.Instruction{}, err
	}
	return AddrSpaceCast(dst.r, src.r, as[0], as[1]), nil
}
