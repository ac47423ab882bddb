// Package obj describes a compiled BPF object before it is written as ELF:
// functions as cilium/ebpf asm instructions, maps and data sections with their
// BTF types. codegen produces it; codegen's ELF writer and listing consume it.
package obj

import (
	"encoding/binary"

	"github.com/cilium/ebpf/asm"
	"github.com/cilium/ebpf/btf"
)

// Object is one translation unit's compiled output.
type Object struct {
	// Funcs holds programs (Section set) and subprograms (Section ".text")
	// in source order.
	Funcs      []*Func
	Maps       []*Map
	Data       []*DataSection
	License    string // "" means no license section
	Version    uint32
	HasVersion bool
	// Debug asks for .BTF.ext func_info and line_info (-g, the default).
	Debug     bool
	ByteOrder binary.ByteOrder // nil means little endian
	// Output records, per perf event array / ring buffer map name, the type
	// of the records it carries. The ELF writer emits it as BTF decl tags
	// "bpfcc:output" on the map variable so the runtime can decode events.
	Output map[string]btf.Type
}

// Func is a program or subprogram.
//
// Insns reference other symbols by name through asm's metadata:
//   - ld_imm64 of a map (asm.LoadMapPtr): Reference() is the map's name;
//   - ld_imm64 of global data: Reference() is the variable's name and
//     Constant is the byte offset within that variable;
//   - bpf-to-bpf call (Src asm.PseudoCall): Reference() is the callee's name.
//
// The writer turns each into a relocation of the kind libbpf expects.
type Func struct {
	Name    string
	Section string // "xdp", "kprobe/do_sys_open", ".text", ...
	Static  bool   // STB_LOCAL symbol
	Insns   asm.Instructions
	// Lines maps instructions to source, sorted by Insn; an entry applies
	// from its instruction up to the next entry.
	Lines []Line
	// Notes are listing comments attached to instruction indices.
	Notes map[int][]string
	BTF   *btf.Func
	// StackSize is the frame size in bytes, for diagnostics and listings.
	StackSize int
}

// Line is one line_info record: the instruction index (not byte offset)
// where a source line starts.
type Line struct {
	Insn      int
	File      string
	Line, Col uint32
	Text      string // the source line itself
}

// Map is a BTF-defined map in ".maps".
type Map struct {
	Name   string
	Static bool
	// BTF is the anonymous struct type of the map variable
	// (type, key, value, max_entries, ... as __uint/__type members).
	BTF *btf.Struct
	// Inner holds map-in-map initialisers (relocations inside .maps).
	Inner []MapInit
}

// MapInit places a pointer to map Sym at byte offset Off of the definition.
type MapInit struct {
	Off int
	Sym string
}

// DataSection is .data, .rodata, .bss or a named variant (.data.foo).
type DataSection struct {
	Name string
	Vars []*Var
	// Bytes is the section contents (nil for .bss); len(Bytes) or, for
	// .bss, Size gives the section size.
	Bytes []byte
	Size  int
	Align int
}

// Var is a variable inside a data section.
type Var struct {
	Name   string
	Offset int
	Size   int
	Static bool
	BTF    btf.Type
}
