// Package elfwriter writes a compiled obj.Object as an ELF64 relocatable
// object for the BPF machine (EM_BPF, ET_REL), laid out the way
// clang -target bpf lays it out and the way libbpf 1.x and cilium/ebpf's
// ELF reader expect it:
//
//   - one executable PROGBITS section per distinct obj.Func.Section, the
//     functions of a section concatenated in Object order, ".text" first;
//     each function gets an STT_FUNC symbol (STB_LOCAL when Static);
//   - ".rel<section>" SHT_REL sections for map, data and function
//     references (see relocate.go for the exact encodings);
//   - ".maps" with one zero-filled STT_OBJECT per map, ".rel.maps" for
//     map-in-map initialisers;
//   - ".data*", ".rodata*" and ".bss*" with an STT_OBJECT per variable;
//   - "license" and "version";
//   - ".BTF" (built with cilium/ebpf's btf.Builder) and, when Object.Debug
//     is set, ".BTF.ext" with func_info and line_info;
//   - ".symtab" (locals first) and a single ".strtab" that holds both the
//     symbol and the section names, as clang emits it.
//
// # Output record types
//
// Object.Output associates a perf event array or ring buffer map with the
// BTF type of the records it carries. The writer encodes each entry as
//
//   - a BTF decl tag with value OutputTag ("bpfcc:output") on the map's VAR
//     in the ".maps" DATASEC; cilium/ebpf exposes it as MapSpec.Tags and as
//     btf.Var.Tags, libbpf ignores it; and
//   - a VAR named OutputVarPrefix+mapname ("__bpfcc_output_events") with
//     static linkage whose type is the record type. The VAR belongs to no
//     DATASEC, so neither loader allocates storage for it, and the kernel
//     accepts it as part of the object's BTF.
//
// A runtime reads the record type of map m back with
//
//	var v *btf.Var
//	err := spec.Types.TypeByName(OutputVarPrefix+m, &v) // v.Type is the record
//
// The output is deterministic: the same Object gives byte-identical bytes.
package elfwriter

import (
	"debug/elf"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/bpfcc/bpfcc/abi"
	"github.com/bpfcc/bpfcc/codegen/obj"
)

// OutputTag is the BTF decl tag placed on the VAR of a map listed in
// Object.Output.
const OutputTag = abi.OutputTag

// OutputVarPrefix prefixes the map name to form the name of the BTF VAR
// whose type is the map's record type.
const OutputVarPrefix = abi.OutputVarPrefix

// ErrInvalidObject is wrapped by every error caused by an inconsistent
// obj.Object (undefined references, overlapping variables, ...).
var ErrInvalidObject = errors.New("invalid object")

// Write encodes o as an ELF relocatable object. It never panics: an
// internal failure is returned as an error.
func Write(o *obj.Object) (out []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("elfwriter: internal error: %v", r)
		}
	}()
	if o == nil {
		return nil, fmt.Errorf("elfwriter: nil object: %w", ErrInvalidObject)
	}
	w, err := newWriter(o)
	if err != nil {
		return nil, fmt.Errorf("elfwriter: %w", err)
	}
	out, err = w.write()
	if err != nil {
		return nil, fmt.Errorf("elfwriter: %w", err)
	}
	return out, nil
}

// invalid returns an error wrapping ErrInvalidObject.
func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalidObject, fmt.Sprintf(format, args...))
}

// writer holds the state of one Write call.
type writer struct {
	o  *obj.Object
	bo binary.ByteOrder

	file *elfFile

	progs   []*progSection          // executable sections in output order
	progsBy map[string]*progSection // by section name
	funcs   map[string]*funcLayout  // by function name

	mapsSec *section
	maps    map[string]*mapLayout // by map name
	mapList []*mapLayout

	data    []*dataLayout
	vars    map[string]*varLayout    // by variable name
	externs map[string]*externLayout // by name
	kfuncs  map[string]*symbol       // undefined symbols of kernel functions
	names   map[string]string        // global namespace: name -> kind, for clashes
}

// progSection is an executable section and the functions placed in it.
type progSection struct {
	name  string
	sec   *section
	sym   *symbol // STT_SECTION symbol
	funcs []*funcLayout
	size  uint64 // bytes
	rels  []relocation
}

// funcLayout is where a function lands in its section.
type funcLayout struct {
	fn   *obj.Func
	prog *progSection
	off  uint64 // byte offset within the section
	size uint64 // bytes
	// raw holds the raw (8-byte slot) offset of each instruction in fn.Insns,
	// relative to the function start, plus the total at the end.
	raw []uint64
	sym *symbol
}

// mapLayout is where a map lands in ".maps".
type mapLayout struct {
	m    *obj.Map
	off  uint64
	size uint64
	sym  *symbol
}

// dataLayout is one data section.
type dataLayout struct {
	ds  *obj.DataSection
	sec *section
	sym *symbol // the STT_SECTION symbol
}

// varLayout is one variable in a data section.
type varLayout struct {
	v    *obj.Var
	data *dataLayout
	sym  *symbol
}

func newWriter(o *obj.Object) (*writer, error) {
	w := &writer{
		o:       o,
		bo:      o.ByteOrder,
		progsBy: make(map[string]*progSection),
		funcs:   make(map[string]*funcLayout),
		maps:    make(map[string]*mapLayout),
		vars:    make(map[string]*varLayout),
		externs: make(map[string]*externLayout),
		kfuncs:  make(map[string]*symbol),
		names:   make(map[string]string),
	}
	if w.bo == nil {
		w.bo = binary.LittleEndian
	}
	switch w.bo {
	case binary.LittleEndian, binary.BigEndian:
	default:
		// Accept any ByteOrder that behaves like one of the two.
		var b [2]byte
		w.bo.PutUint16(b[:], 1)
		if b[0] == 1 {
			w.bo = binary.LittleEndian
		} else {
			w.bo = binary.BigEndian
		}
	}
	w.file = newELFFile(w.bo)
	return w, nil
}

// claim records name as a global symbol of the given kind and reports a
// clash with an earlier one.
func (w *writer) claim(name, kind string) error {
	if name == "" {
		return invalid("%s with empty name", kind)
	}
	if prev, ok := w.names[name]; ok {
		return invalid("%s %q clashes with %s of the same name", kind, name, prev)
	}
	w.names[name] = kind
	return nil
}

func (w *writer) write() ([]byte, error) {
	steps := []struct {
		name string
		fn   func() error
	}{
		{"lay out functions", w.layoutFuncs},
		{"lay out maps", w.layoutMaps},
		{"lay out data", w.layoutData},
		{"externs", w.layoutExterns},
		{"symbols", w.addSymbols},
		{"encode functions", w.encodeFuncs},
		{"maps", w.encodeMaps},
		{"data", w.encodeData},
		{"license and version", w.addLicense},
		{"BTF", w.addBTF},
	}
	for _, s := range steps {
		if err := s.fn(); err != nil {
			return nil, fmt.Errorf("%s: %w", s.name, err)
		}
	}
	return w.file.bytes()
}

// addLicense adds the "license" and "version" sections.
func (w *writer) addLicense() error {
	if w.o.License != "" {
		lic := []byte(w.o.License)
		for _, c := range lic {
			if c == 0 {
				return invalid("license contains a NUL byte")
			}
		}
		w.file.add(&section{
			name:  "license",
			typ:   elf.SHT_PROGBITS,
			flags: elf.SHF_ALLOC | elf.SHF_WRITE,
			align: 1,
			data:  append(lic, 0),
		})
	}
	if w.o.HasVersion {
		data := make([]byte, 4)
		w.bo.PutUint32(data, w.o.Version)
		w.file.add(&section{
			name:  "version",
			typ:   elf.SHT_PROGBITS,
			flags: elf.SHF_ALLOC | elf.SHF_WRITE,
			align: 4,
			data:  data,
		})
	}
	return nil
}
