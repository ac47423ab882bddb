// Package obj describes a compiled BPF object before it is written as ELF:
// functions as cilium/ebpf asm instructions, maps and data sections with their
// BTF types. codegen produces it; codegen's ELF writer and listing consume it.
package obj

import (
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"

	"github.com/cilium/ebpf/asm"
	"github.com/cilium/ebpf/btf"

	"github.com/bpfcc/bpfcc/diag"
	"github.com/bpfcc/bpfcc/ir"
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
	// Externs are the variables the loader resolves (.kconfig, .ksyms).
	Externs []*Extern
	// Kfuncs are the kernel functions called (calls referencing a name
	// that is not one of Funcs).
	Kfuncs []*Kfunc
	// Output records, per perf event array / ring buffer map name, the type
	// of the records it carries. The ELF writer emits it as BTF decl tags
	// "bpfcc:output" on the map variable so the runtime can decode events.
	Output map[string]btf.Type
	// Warnings are what codegen's verification of the object found that
	// does not stop it from loading everywhere (a program only privileged
	// loaders accept); they are not written to the ELF file.
	Warnings diag.List
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
	Hidden  bool   // STV_HIDDEN symbol
	Weak    bool   // STB_WEAK symbol (__weak)
	Insns   asm.Instructions
	// Lines maps instructions to source, sorted by Insn; an entry applies
	// from its instruction up to the next entry.
	Lines []Line
	// Notes are listing comments attached to instruction indices.
	Notes map[int][]string
	BTF   *btf.Func
	// StackSize is the frame size in bytes, for diagnostics and listings.
	StackSize int
	// Pos is the function's definition, where diagnostics about the whole
	// function point.
	Pos ir.Pos
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
	Tags  []string // btf_decl_tag attributes
	// Extern marks a map another object defines, for the BPF static
	// linker: an undefined symbol and a VAR of extern linkage in DATASEC
	// ".maps" (offset 0), as clang writes it. Weak lets an extern stay
	// undefined, and makes a definition STB_WEAK, as clang writes it.
	Extern, Weak bool
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
	// Relocs are addresses inside Bytes (see DataReloc).
	Relocs []DataReloc
}

// DataReloc says that the 8 bytes at section offset Off hold the address of
// Sym (a function, variable, map, extern or kfunc) plus Addend: an
// R_BPF_64_ABS64 relocation, with the implicit addend in the contents as
// clang writes it.
type DataReloc struct {
	Off    int
	Sym    string
	Addend int64
}

// Var is a variable inside a data section.
type Var struct {
	Name   string
	Offset int
	Size   int
	Static bool
	Hidden bool // STV_HIDDEN symbol
	Weak   bool // STB_WEAK: another object's definition wins at link time
	BTF    btf.Type
	Tags   []string // btf_decl_tag attributes
}

// CoreReloc is a CO-RE relocation of the instruction that carries it (see
// WithCore): the loader patches the instruction's immediate with the value
// of Kind (enum bpf_core_relo_kind) for the access string Access in Type,
// computed against the running kernel's BTF.
type CoreReloc struct {
	Kind   uint32
	Type   btf.Type
	Access string
}

// coreKey is the asm.Metadata key of an instruction's CoreReloc.
type coreKey struct{}

// WithCore returns ins carrying the CO-RE relocation r.
func WithCore(ins asm.Instruction, r *CoreReloc) asm.Instruction {
	ins.Metadata.Set(coreKey{}, r)
	return ins
}

// CoreOf returns the CO-RE relocation ins carries, or nil.
func CoreOf(ins asm.Instruction) *CoreReloc {
	r, _ := ins.Metadata.Get(coreKey{}).(*CoreReloc)
	return r
}

// String renders r as llvm-objdump does: "byte_off struct s::a.b (0:1:2)".
func (r *CoreReloc) String() string {
	return fmt.Sprintf("CO-RE <%s> %s (%s)", ir.CoreKind(r.Kind), corePath(r.Type, r.Access), r.Access)
}

// corePath names the access: the root type, then members and indices.
func corePath(t btf.Type, access string) string {
	var sb strings.Builder
	sb.WriteString(ir.TypeName(t))
	idx := strings.Split(access, ":")
	if e, ok := btf.UnderlyingType(t).(*btf.Enum); ok && len(idx) == 1 {
		if i, err := strconv.Atoi(idx[0]); err == nil && i >= 0 && i < len(e.Values) {
			sb.WriteString("::" + e.Values[i].Name)
		}
		return sb.String()
	}
	sep := "::"
	for _, s := range idx[min(1, len(idx)):] {
		i, err := strconv.Atoi(s)
		if err != nil {
			break
		}
		switch u := btf.UnderlyingType(t).(type) {
		case *btf.Struct, *btf.Union:
			ms := members(u)
			if i < 0 || i >= len(ms) {
				return sb.String()
			}
			if ms[i].Name != "" {
				sb.WriteString(sep + ms[i].Name)
				sep = "."
			}
			t = ms[i].Type
		case *btf.Array:
			fmt.Fprintf(&sb, "[%d]", i)
			t = u.Type
		default:
			return sb.String()
		}
	}
	return sb.String()
}

func members(t btf.Type) []btf.Member {
	switch u := t.(type) {
	case *btf.Struct:
		return u.Members
	case *btf.Union:
		return u.Members
	}
	return nil
}

// Extern is a variable the loader provides: a Kconfig value (section
// ".kconfig": LINUX_KERNEL_VERSION, CONFIG_*) or a kernel symbol's address
// (".ksyms"); or, with Section "", one another object defines, which the
// BPF static linker resolves. Code reaches it through ld_imm64 with a
// relocation against an undefined symbol; BTF describes it in a DATASEC of
// its section name (none for Section "").
type Extern struct {
	Name    string
	Section string
	Size    int
	Weak    bool // __weak: the loader may leave it zero
	BTF     btf.Type
}

// Kfunc is a kernel function the object calls: an undefined symbol and a
// BTF FUNC (extern linkage) in DATASEC ".ksyms".
type Kfunc struct {
	Name string
	BTF  *btf.Func
	Weak bool
	// Plain marks an extern function not declared __ksym (its address is
	// taken, for the BPF static linker): its FUNC is in no DATASEC.
	Plain  bool
	Hidden bool // STV_HIDDEN symbol
}
