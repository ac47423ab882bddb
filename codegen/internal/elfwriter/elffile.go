package elfwriter

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"fmt"
	"math"
)

// ELF relocation types of the BPF backend (llvm/BinaryFormat/ELFRelocs/BPF.def).
const (
	rBPF64_64    = 1  // R_BPF_64_64: ld_imm64 of a map, variable or function
	rBPF64Abs64  = 2  // R_BPF_64_ABS64: 64-bit data word (map-in-map slots)
	rBPF64_32    = 10 // R_BPF_64_32: bpf-to-bpf call
	elfHeaderLen = 64
	shdrLen      = 64
	symLen       = 24
	relLen       = 16
)

// section is an output section. Indices are assigned when the file is
// serialised, so sections refer to each other by pointer.
type section struct {
	name  string
	typ   elf.SectionType
	flags elf.SectionFlag
	align uint64
	data  []byte
	size  uint64 // NOBITS size; ignored otherwise
	// rels are emitted as ".rel"+name right after the section.
	rels    []relocation
	link    *section // sh_link
	info    *section // sh_info as a section index
	infoVal uint32   // sh_info as a value (when info is nil)
	entsize uint64

	index int
}

// relocation is one Elf64_Rel entry.
type relocation struct {
	off uint64
	sym *symbol
	typ uint32
}

// symbol is one Elf64_Sym. A nil sec means SHN_UNDEF.
type symbol struct {
	name  string
	bind  elf.SymBind
	typ   elf.SymType
	vis   elf.SymVis
	sec   *section
	value uint64
	size  uint64

	index int
}

// elfFile collects sections and symbols and serialises them.
type elfFile struct {
	bo       binary.ByteOrder
	strtab   *section
	sections []*section
	symbols  []*symbol
}

func newELFFile(bo binary.ByteOrder) *elfFile {
	f := &elfFile{bo: bo}
	// clang places the string table first; it also names the sections.
	f.strtab = f.add(&section{name: ".strtab", typ: elf.SHT_STRTAB, align: 1})
	return f
}

// add appends s to the section list and returns it.
func (f *elfFile) add(s *section) *section {
	f.sections = append(f.sections, s)
	return s
}

// addSymbol appends a symbol; locals are moved in front of globals when the
// table is written, each group keeping insertion order.
func (f *elfFile) addSymbol(s *symbol) *symbol {
	f.symbols = append(f.symbols, s)
	return s
}

// strtabBuilder deduplicates NUL-terminated strings.
type strtabBuilder struct {
	buf  bytes.Buffer
	offs map[string]uint32
}

func newStrtab() *strtabBuilder {
	t := &strtabBuilder{offs: map[string]uint32{"": 0}}
	t.buf.WriteByte(0)
	return t
}

func (t *strtabBuilder) add(s string) uint32 {
	if off, ok := t.offs[s]; ok {
		return off
	}
	off := uint32(t.buf.Len())
	t.buf.WriteString(s)
	t.buf.WriteByte(0)
	t.offs[s] = off
	return off
}

// bytes lays the file out: ELF header, section contents in order, then the
// section header table.
func (f *elfFile) bytes() ([]byte, error) {
	// Final section list: each section followed by its relocations, then
	// the symbol table.
	symtab := &section{name: ".symtab", typ: elf.SHT_SYMTAB, align: 8, entsize: symLen, link: f.strtab}
	var all []*section
	for _, s := range f.sections {
		all = append(all, s)
		if len(s.rels) > 0 {
			all = append(all, &section{
				name:    ".rel" + s.name,
				typ:     elf.SHT_REL,
				flags:   elf.SHF_INFO_LINK,
				align:   8,
				entsize: relLen,
				link:    symtab,
				info:    s,
				data:    nil, // filled below, once symbol indices are known
			})
		}
	}
	all = append(all, symtab)
	if len(all)+1 >= int(elf.SHN_LORESERVE) {
		return nil, fmt.Errorf("too many sections (%d)", len(all)+1)
	}
	for i, s := range all {
		s.index = i + 1
	}

	// Symbol table: null symbol, locals, globals.
	strs := newStrtab()
	ordered := []*symbol{{}}
	for _, s := range f.symbols {
		if s.bind == elf.STB_LOCAL {
			ordered = append(ordered, s)
		}
	}
	firstGlobal := len(ordered)
	for _, s := range f.symbols {
		if s.bind != elf.STB_LOCAL {
			ordered = append(ordered, s)
		}
	}
	var symData bytes.Buffer
	for i, s := range ordered {
		s.index = i
		var shndx uint16
		if s.sec != nil {
			shndx = uint16(s.sec.index)
		}
		var name uint32
		if s.name != "" && s.typ != elf.STT_SECTION {
			name = strs.add(s.name)
		}
		_ = binary.Write(&symData, f.bo, elf.Sym64{
			Name:  name,
			Info:  elf.ST_INFO(s.bind, s.typ),
			Other: byte(s.vis),
			Shndx: shndx,
			Value: s.value,
			Size:  s.size,
		})
	}
	symtab.data = symData.Bytes()
	symtab.infoVal = uint32(firstGlobal)

	// Relocation contents.
	for _, s := range all {
		if s.typ != elf.SHT_REL {
			continue
		}
		var buf bytes.Buffer
		for _, r := range s.info.rels {
			if r.sym == nil || r.sym.index == 0 {
				return nil, fmt.Errorf("section %s: relocation at %#x against unplaced symbol", s.info.name, r.off)
			}
			_ = binary.Write(&buf, f.bo, elf.Rel64{Off: r.off, Info: elf.R_INFO(uint32(r.sym.index), r.typ)})
		}
		s.data = buf.Bytes()
	}

	// Section names share the string table with symbols, as with clang.
	nameOffs := make([]uint32, len(all))
	for i, s := range all {
		nameOffs[i] = strs.add(s.name)
	}
	f.strtab.data = strs.buf.Bytes()

	// Contents.
	out := make([]byte, elfHeaderLen)
	offs := make([]uint64, len(all))
	for i, s := range all {
		align := max(s.align, 1)
		for uint64(len(out))%align != 0 {
			out = append(out, 0)
		}
		offs[i] = uint64(len(out))
		if s.typ != elf.SHT_NOBITS {
			out = append(out, s.data...)
		}
	}
	for len(out)%8 != 0 {
		out = append(out, 0)
	}
	shoff := uint64(len(out))

	// Section headers: the null header, then one per section.
	var shdrs bytes.Buffer
	_ = binary.Write(&shdrs, f.bo, elf.Section64{})
	for i, s := range all {
		size := uint64(len(s.data))
		if s.typ == elf.SHT_NOBITS {
			size = s.size
		}
		h := elf.Section64{
			Name:      nameOffs[i],
			Type:      uint32(s.typ),
			Flags:     uint64(s.flags),
			Off:       offs[i],
			Size:      size,
			Addralign: s.align,
			Entsize:   s.entsize,
			Info:      s.infoVal,
		}
		if s.link != nil {
			h.Link = uint32(s.link.index)
		}
		if s.info != nil {
			h.Info = uint32(s.info.index)
		}
		_ = binary.Write(&shdrs, f.bo, h)
	}
	out = append(out, shdrs.Bytes()...)

	// ELF header.
	var ident [elf.EI_NIDENT]byte
	copy(ident[:], elf.ELFMAG)
	ident[elf.EI_CLASS] = byte(elf.ELFCLASS64)
	ident[elf.EI_DATA] = byte(elf.ELFDATA2LSB)
	if f.bo == binary.BigEndian {
		ident[elf.EI_DATA] = byte(elf.ELFDATA2MSB)
	}
	ident[elf.EI_VERSION] = byte(elf.EV_CURRENT)
	ident[elf.EI_OSABI] = byte(elf.ELFOSABI_NONE)
	hdr := elf.Header64{
		Ident:     ident,
		Type:      uint16(elf.ET_REL),
		Machine:   uint16(elf.EM_BPF),
		Version:   uint32(elf.EV_CURRENT),
		Shoff:     shoff,
		Ehsize:    elfHeaderLen,
		Shentsize: shdrLen,
		Shnum:     uint16(len(all) + 1),
		Shstrndx:  uint16(f.strtab.index),
	}
	var hb bytes.Buffer
	_ = binary.Write(&hb, f.bo, hdr)
	copy(out, hb.Bytes())
	if uint64(len(out)) > math.MaxInt32 {
		return nil, fmt.Errorf("object too large (%d bytes)", len(out))
	}
	return out, nil
}
