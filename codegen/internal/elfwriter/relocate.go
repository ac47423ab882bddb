package elfwriter

import (
	"bytes"
	"debug/elf"
	"fmt"
	"math"
	"slices"

	"github.com/cilium/ebpf/asm"

	"github.com/bpfcc/bpfcc/codegen/obj"
)

// Relocation encodings. Each follows what clang emits and was checked
// against libbpf (bpf_program__record_reloc) and cilium/ebpf
// (elfCode.relocateInstruction):
//
//   - ld_imm64 of a map: R_BPF_64_64 against the map's STT_OBJECT symbol,
//     src_reg 0 and imm 0. Both loaders find the map by the symbol.
//   - ld_imm64 of a global variable at offset 0 within it: R_BPF_64_64
//     against the variable's symbol, imm 0 (libbpf adds st_value, cilium
//     uses st_value).
//   - ld_imm64 of a static variable, or of any variable at a non-zero
//     offset within it: R_BPF_64_64 against the data section's STT_SECTION
//     symbol with imm = offset within the section. cilium ignores imm for
//     STT_OBJECT targets, so this is the only encoding that gives an
//     interior pointer the same meaning under both loaders.
//   - ld_imm64 of a function (src_reg BPF_PSEUDO_FUNC, e.g. a bpf_loop
//     callback): R_BPF_64_64 against the callee section's STT_SECTION
//     symbol with imm = callee byte offset and src_reg 0, as clang emits
//     for static callbacks; cilium resolves STT_FUNC targets by imm rather
//     than st_value, so the section form is the one both read correctly.
//   - bpf-to-bpf call to a global function: R_BPF_64_32 against the
//     callee's STT_FUNC symbol, imm -1.
//   - bpf-to-bpf call to a static function: R_BPF_64_32 against the
//     callee section's STT_SECTION symbol, imm = callee_off/8 - 1.
//   - jumps carrying a Reference to a label (an instruction with that
//     Symbol inside the same function) are resolved to a pc-relative
//     offset; no relocation.
//
// libbpf requires the callees of calls and function loads to live in
// ".text"; the writer does not enforce that, the loader reports it.

// encodeFuncs writes the instructions of every program section and
// collects the relocations.
func (w *writer) encodeFuncs() error {
	for _, ps := range w.progs {
		var buf bytes.Buffer
		buf.Grow(int(ps.size))
		for _, fl := range ps.funcs {
			if err := w.encodeFunc(fl, &buf); err != nil {
				return fmt.Errorf("function %s: %w", fl.fn.Name, err)
			}
		}
		if uint64(buf.Len()) != ps.size {
			return fmt.Errorf("section %s: encoded %d bytes, laid out %d", ps.name, buf.Len(), ps.size)
		}
		ps.sec.data = buf.Bytes()
		ps.sec.rels = ps.rels
	}
	return nil
}

// encodeFunc appends fl's instructions to buf.
func (w *writer) encodeFunc(fl *funcLayout, buf *bytes.Buffer) error {
	labels := make(map[string]uint64)
	for i, ins := range fl.fn.Insns {
		s := ins.Symbol()
		if s == "" {
			continue
		}
		if _, dup := labels[s]; dup {
			return invalid("label %q defined twice", s)
		}
		labels[s] = fl.raw[i]
	}
	for i := range fl.fn.Insns {
		ins := fl.fn.Insns[i]
		raw := fl.raw[i]
		if ref := ins.Reference(); ref != "" {
			if err := w.resolve(&ins, ref, fl, raw, labels); err != nil {
				return fmt.Errorf("instruction %d (%v): %w", i, ins, err)
			}
		}
		at := buf.Len()
		if _, err := ins.Marshal(buf, w.bo); err != nil {
			return fmt.Errorf("instruction %d (%v): %w", i, ins, err)
		}
		if movOffset(ins) {
			// cilium/ebpf writes a plain mov's offset as 0; addr_space_cast
			// is a mov with offset 1.
			w.bo.PutUint16(buf.Bytes()[at+2:at+4], uint16(ins.Offset))
		}
	}
	return nil
}

// movOffset reports a mov whose offset asm.Instruction.Marshal drops
// (it writes offsets only for the ALU operations it models: movsx, sdiv).
func movOffset(ins asm.Instruction) bool {
	return ins.OpCode.Class().IsALU() && ins.OpCode.ALUOp() == asm.Mov && ins.Offset != 0
}

// resolve rewrites ins, which references ref, and records its relocation.
// raw is the instruction's raw offset within its function.
func (w *writer) resolve(ins *asm.Instruction, ref string, fl *funcLayout, raw uint64, labels map[string]uint64) error {
	secOff := fl.off + raw*asm.InstructionSize
	op := ins.OpCode
	switch {
	case op.JumpOp() == asm.Call && ins.Src == asm.PseudoCall:
		callee := w.funcs[ref]
		if sym := w.kfuncs[ref]; callee == nil && sym != nil {
			// A kernel function: the loader makes it a kfunc call.
			ins.Constant = -1
			fl.prog.rels = append(fl.prog.rels, relocation{off: secOff, typ: rBPF64_32, sym: sym})
			return nil
		}
		if callee == nil {
			return invalid("call to undefined function %q", ref)
		}
		r := relocation{off: secOff, typ: rBPF64_32}
		if callee.fn.Static {
			r.sym = callee.prog.sym
			ins.Constant = int64(callee.off/asm.InstructionSize) - 1
		} else {
			r.sym = callee.sym
			ins.Constant = -1
		}
		if ins.Constant > math.MaxInt32 {
			return invalid("call target %q out of range", ref)
		}
		fl.prog.rels = append(fl.prog.rels, r)
		return nil

	case op.JumpOp() == asm.Call:
		return invalid("reference %q on a call that is not a bpf-to-bpf call (kfuncs and externs are not supported)", ref)

	case op.IsDWordLoad():
		return w.resolveLoad(ins, ref, fl, secOff)

	case op.Class().IsJump():
		target, ok := labels[ref]
		if !ok {
			return invalid("jump to undefined label %q", ref)
		}
		delta := int64(target) - int64(raw) - 1
		if op.Class() == asm.Jump32Class && op.JumpOp() == asm.Ja {
			// gotol: 32-bit offset in imm.
			if delta < math.MinInt32 || delta > math.MaxInt32 {
				return invalid("jump to %q out of range", ref)
			}
			ins.Constant = delta
			return nil
		}
		if delta < math.MinInt16 || delta > math.MaxInt16 {
			return invalid("jump to %q out of range (%d instructions)", ref, delta)
		}
		ins.Offset = int16(delta)
		return nil
	}
	return invalid("reference %q on an instruction that cannot carry one", ref)
}

// resolveLoad handles ld_imm64 of a map, a variable or a function.
func (w *writer) resolveLoad(ins *asm.Instruction, ref string, fl *funcLayout, secOff uint64) error {
	r := relocation{off: secOff, typ: rBPF64_64}
	switch {
	case ins.Src == asm.PseudoFunc:
		callee := w.funcs[ref]
		if callee == nil {
			return invalid("address of undefined function %q", ref)
		}
		if callee.off > math.MaxInt32 {
			return invalid("function %q out of range", ref)
		}
		r.sym = callee.prog.sym
		ins.Src = 0
		ins.Constant = int64(callee.off)

	case w.maps[ref] != nil:
		if ins.Src == asm.PseudoMapValue {
			return invalid("direct value access to map %q cannot be expressed in ELF; use a data section", ref)
		}
		r.sym = w.maps[ref].sym
		ins.Src = 0
		ins.Constant = 0

	case w.vars[ref] != nil:
		vl := w.vars[ref]
		// Constant is the offset within the variable. An
		// asm.LoadMapValue instruction keeps it in the upper half, next to
		// the (meaningless here) fd in the lower half.
		off := ins.Constant
		if ins.Src == asm.PseudoMapValue {
			off = int64(uint64(off) >> 32)
		}
		if off < 0 || off > int64(vl.v.Size) {
			return invalid("offset %d outside variable %q of size %d", off, ref, vl.v.Size)
		}
		abs := int64(vl.v.Offset) + off
		if abs > math.MaxInt32 {
			return invalid("variable %q: offset %d out of range", ref, abs)
		}
		if vl.v.Static || off != 0 {
			r.sym = vl.data.sym
			ins.Constant = abs
		} else {
			r.sym = vl.sym
			ins.Constant = 0
		}
		ins.Src = 0

	case w.externs[ref] != nil:
		// The loader supplies the value's address: imm stays 0.
		if ins.Constant != 0 {
			return invalid("extern %q accessed at offset %d; only its start can be addressed", ref, ins.Constant)
		}
		r.sym = w.externs[ref].sym
		ins.Src = 0

	case w.kfuncs[ref] != nil:
		// The address of a kernel function (bpf_ksym_exists): the loader
		// fills it in, 0 when a __weak one is missing.
		if ins.Constant != 0 {
			return invalid("kfunc %q addressed at offset %d", ref, ins.Constant)
		}
		r.sym = w.kfuncs[ref]
		ins.Src = 0

	case w.funcs[ref] != nil:
		return invalid("ld_imm64 of function %q without src_reg BPF_PSEUDO_FUNC", ref)

	default:
		return invalid("undefined symbol %q", ref)
	}
	fl.prog.rels = append(fl.prog.rels, r)
	return nil
}

// encodeMaps records the map-in-map initialisers as R_BPF_64_ABS64
// relocations in ".rel.maps" (the type clang uses; libbpf and cilium/ebpf
// only look at the offset and the symbol).
func (w *writer) encodeMaps() error {
	if w.mapsSec == nil {
		return nil
	}
	var rels []relocation
	for _, ml := range w.mapList {
		seen := make(map[int]bool)
		for _, in := range ml.m.Inner {
			var sym *symbol
			switch {
			case w.maps[in.Sym] != nil:
				sym = w.maps[in.Sym].sym
			case w.funcs[in.Sym] != nil:
				// A program in a prog array's .values (tail-call table).
				sym = w.funcs[in.Sym].sym
			default:
				return invalid("map %s: initialiser references undefined map or program %q", ml.m.Name, in.Sym)
			}
			if seen[in.Off] {
				return invalid("map %s: two initialisers at offset %d", ml.m.Name, in.Off)
			}
			seen[in.Off] = true
			rels = append(rels, relocation{off: ml.off + uint64(in.Off), sym: sym, typ: rBPF64Abs64})
		}
	}
	w.mapsSec.rels = rels
	return nil
}

// encodeData records the addresses inside data sections as R_BPF_64_ABS64
// relocations in ".rel<section>", in clang's encoding: against the
// symbol of a global function, variable, map or extern with the addend in
// the contents, and against the section symbol of a static function or
// variable with its offset added to the addend. libbpf reads them in
// ".struct_ops" and ".struct_ops.link" (st_value of a function symbol gives
// the program); the BPF static linker resolves them all.
func (w *writer) encodeData() error {
	for _, dl := range w.data {
		if len(dl.ds.Relocs) > 0 && dl.sec.typ == elf.SHT_NOBITS {
			return invalid("data section %s: addresses in a section without contents", dl.ds.Name)
		}
		seen := make(map[int]bool)
		// In offset order, as clang writes them.
		relocs := slices.Clone(dl.ds.Relocs)
		slices.SortStableFunc(relocs, func(a, b obj.DataReloc) int { return a.Off - b.Off })
		for _, r := range relocs {
			if r.Off < 0 || r.Off+8 > len(dl.sec.data) {
				return invalid("data section %s: address at offset %d outside the section", dl.ds.Name, r.Off)
			}
			if seen[r.Off] {
				return invalid("data section %s: two addresses at offset %d", dl.ds.Name, r.Off)
			}
			seen[r.Off] = true
			sym, base, err := w.dataTarget(r.Sym)
			if err != nil {
				return fmt.Errorf("data section %s: %w", dl.ds.Name, err)
			}
			w.bo.PutUint64(dl.sec.data[r.Off:], uint64(base+r.Addend))
			dl.sec.rels = append(dl.sec.rels, relocation{off: uint64(r.Off), sym: sym, typ: rBPF64Abs64})
		}
	}
	return nil
}

// dataTarget is the symbol a data relocation against name uses and the
// offset from that symbol at which name starts.
func (w *writer) dataTarget(name string) (*symbol, int64, error) {
	switch {
	case w.funcs[name] != nil:
		fl := w.funcs[name]
		if fl.fn.Static {
			return fl.prog.sym, int64(fl.off), nil
		}
		return fl.sym, 0, nil
	case w.vars[name] != nil:
		vl := w.vars[name]
		if vl.v.Static {
			return vl.data.sym, int64(vl.v.Offset), nil
		}
		return vl.sym, 0, nil
	case w.maps[name] != nil:
		return w.maps[name].sym, 0, nil
	case w.externs[name] != nil:
		return w.externs[name].sym, 0, nil
	case w.kfuncs[name] != nil:
		return w.kfuncs[name], 0, nil
	}
	return nil, 0, invalid("address of undefined symbol %q", name)
}
