package elfwriter

import (
	"bytes"
	"debug/elf"
	"errors"
	"strings"
	"testing"

	"github.com/cilium/ebpf"
	"github.com/cilium/ebpf/asm"
	"github.com/cilium/ebpf/btf"

	"github.com/bpfcc/bpfcc/codegen/obj"
)

func TestInvalidObjects(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(o *obj.Object)
		want   string
	}{
		{"undefined map", func(o *obj.Object) {
			o.Funcs[0].Insns[4] = asm.LoadMapPtr(asm.R1, 0).WithReference("nosuch")
		}, `undefined symbol "nosuch"`},
		{"undefined callee", func(o *obj.Object) {
			o.Funcs[0].Insns[21] = asm.Call.Label("nosuch")
		}, `call to undefined function "nosuch"`},
		{"undefined label", func(o *obj.Object) {
			o.Funcs[0].Insns[6] = asm.JEq.Imm(asm.R0, 0, "nowhere")
		}, `undefined label "nowhere"`},
		{"duplicate function", func(o *obj.Object) { o.Funcs[2].Name = "gadd"; o.Funcs[2].BTF.Name = "gadd" }, `function "gadd" clashes`},
		{"map clashes with variable", func(o *obj.Object) { o.Maps[0].Name = "gv" }, `clashes`},
		{"variable out of section", func(o *obj.Object) { o.Data[0].Vars[1].Size = 12 }, "exceeds section size"},
		{"overlapping variables", func(o *obj.Object) { o.Data[0].Vars[0].Size = 12 }, "overlap"},
		{"offset outside variable", func(o *obj.Object) {
			o.Funcs[0].Insns[18] = asm.LoadImm(asm.R2, 12, asm.DWord).WithReference("arr")
		}, "outside variable"},
		{"unsorted lines", func(o *obj.Object) { o.Funcs[0].Lines[2].Insn = 0 }, "must be sorted"},
		{"line out of range", func(o *obj.Object) { o.Funcs[0].Lines[6].Insn = 99 }, "out of range"},
		{"missing BTF with debug", func(o *obj.Object) { o.Funcs[1].BTF = nil }, "no BTF FUNC"},
		{"BTF name mismatch", func(o *obj.Object) { o.Funcs[1].BTF = funcBTF("other", tInt) }, `BTF FUNC is named "other"`},
		{"reserved section", func(o *obj.Object) { o.Funcs[0].Section = "maps/x" }, "reserved"},
		{"reserved data section name", func(o *obj.Object) { o.Data[0].Name = ".BTF.x" }, "reserved"},
		{"data address of nothing", func(o *obj.Object) { o.Data[0].Relocs = []obj.DataReloc{{Off: 0, Sym: "nosuch"}} }, `undefined symbol "nosuch"`},
		{"data address outside", func(o *obj.Object) { o.Data[0].Relocs = []obj.DataReloc{{Off: 1 << 20, Sym: "gv"}} }, "outside the section"},
		{"data address in bss", func(o *obj.Object) { o.Data[2].Relocs = []obj.DataReloc{{Off: 0, Sym: "gv"}} }, "without contents"},
		{"nonzero bss", func(o *obj.Object) { o.Data[2].Bytes = []byte{1} }, "must be zero"},
		{"output for unknown map", func(o *obj.Object) { o.Output = map[string]btf.Type{"nosuch": tInt} }, `undefined map "nosuch"`},
		{"map without BTF", func(o *obj.Object) { o.Maps[0].BTF = nil }, "no BTF struct"},
		{"empty function", func(o *obj.Object) { o.Funcs[3].Insns = nil }, "no instructions"},
		{"nil function", func(o *obj.Object) { o.Funcs[3] = nil }, "is nil"},
		{"license with NUL", func(o *obj.Object) { o.License = "GPL\x00x" }, "NUL"},
		{"function pointer without PseudoFunc", func(o *obj.Object) {
			o.Funcs[0].Insns[28] = asm.LoadImm(asm.R2, 0, asm.DWord).WithReference("cb")
		}, "without src_reg"},
		{"direct value access to a map", func(o *obj.Object) {
			o.Funcs[0].Insns[4] = asm.LoadMapValue(asm.R1, 0, 0).WithReference("counts")
		}, "direct value access"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := testObject()
			tt.mutate(o)
			_, err := Write(o)
			if err == nil {
				t.Fatal("Write succeeded")
			}
			if !errors.Is(err, ErrInvalidObject) {
				t.Errorf("error %v does not wrap ErrInvalidObject", err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q lacks %q", err, tt.want)
			}
		})
	}
	if _, err := Write(nil); !errors.Is(err, ErrInvalidObject) {
		t.Errorf("Write(nil): %v", err)
	}
}

// TestNoDebug checks that without Debug there is no .BTF.ext but .BTF
// (needed for the maps) remains, and that functions without BTF are
// accepted.
func TestNoDebug(t *testing.T) {
	o := testObject()
	o.Debug = false
	o.Funcs[3].BTF = nil
	out, err := Write(o)
	if err != nil {
		t.Fatal(err)
	}
	f, err := elf.NewFile(bytes.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	if f.Section(".BTF.ext") != nil {
		t.Error(".BTF.ext written without Debug")
	}
	if f.Section(".BTF") == nil {
		t.Error(".BTF missing")
	}
	spec, err := ebpf.LoadCollectionSpecFromReader(bytes.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	for _, ins := range spec.Programs["prog"].Instructions {
		if ins.Source() != nil {
			t.Fatalf("line info without Debug: %v", ins.Source())
		}
	}
}

// TestStaticAndVersion covers static maps and variables, the version
// section, named data sections and duplicate line entries.
func TestStaticAndVersion(t *testing.T) {
	o := testObject()
	o.Maps[0].Static = true
	o.HasVersion, o.Version = true, 0x060c00
	o.Data = append(o.Data, &obj.DataSection{
		Name:  ".data.extra",
		Bytes: le32(9),
		Vars:  []*obj.Var{{Name: "extra", Size: 4, Static: true, BTF: tInt}},
	})
	o.Funcs[0].Lines = append(o.Funcs[0].Lines[:2:2], append([]obj.Line{{Insn: 1, File: "prog.c", Line: 99, Text: "dup"}}, o.Funcs[0].Lines[2:]...)...)
	out, err := Write(o)
	if err != nil {
		t.Fatal(err)
	}
	f, err := elf.NewFile(bytes.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	ver, err := f.Section("version").Data()
	if err != nil || f.ByteOrder.Uint32(ver) != 0x060c00 {
		t.Errorf("version section: %x, %v", ver, err)
	}
	syms, _ := f.Symbols()
	binds := map[string]elf.SymBind{}
	for _, s := range syms {
		binds[s.Name] = elf.ST_BIND(s.Info)
	}
	if binds["counts"] != elf.STB_LOCAL || binds["extra"] != elf.STB_LOCAL || binds["gv"] != elf.STB_GLOBAL {
		t.Errorf("bindings: %v", binds)
	}
	spec, err := btf.LoadSpecFromReader(bytes.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	var v *btf.Var
	if err := spec.TypeByName("counts", &v); err != nil || v.Linkage != btf.StaticVar {
		t.Errorf("counts VAR: %v, %v", v, err)
	}
	var ds *btf.Datasec
	if err := spec.TypeByName(".data.extra", &ds); err != nil || ds.Size != 4 || len(ds.Vars) != 1 {
		t.Errorf(".data.extra DATASEC: %v, %v", ds, err)
	}
	// Static maps are rejected by cilium/ebpf (its documented behaviour), so
	// check the rest of the object through a copy with a global map.
	o.Maps[0].Static = false
	out, err = Write(o)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := ebpf.LoadCollectionSpecFromReader(bytes.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	if cs.Programs["prog"].KernelVersion != 0x060c00 {
		t.Errorf("kernel version %#x", cs.Programs["prog"].KernelVersion)
	}
	if cs.Maps[".data.extra"] == nil {
		t.Error(".data.extra map missing")
	}
	for _, ins := range cs.Programs["prog"].Instructions {
		if ins.Source() != nil && ins.Source().String() == "dup" {
			return
		}
	}
	t.Error("the last of two line entries for one instruction did not win")
}

// TestInputUnchanged checks that Write leaves the Object's BTF graph alone
// (deduplication would otherwise rewrite shared children in place).
func TestInputUnchanged(t *testing.T) {
	o := testObject()
	// Give two functions equal but distinct prototypes, the case that
	// deduplication merges.
	o.Funcs[2].BTF.Type.(*btf.FuncProto).Params[0].Type = &btf.Int{Name: "int", Size: 4, Encoding: btf.Signed}
	before := o.Funcs[2].BTF.Type.(*btf.FuncProto).Params[0].Type
	member := o.Maps[0].BTF.Members[1].Type
	lin := o.Funcs[2].BTF.Linkage
	if _, err := Write(o); err != nil {
		t.Fatal(err)
	}
	if o.Funcs[2].BTF.Type.(*btf.FuncProto).Params[0].Type != before || o.Maps[0].BTF.Members[1].Type != member {
		t.Error("Write rewrote the input's BTF types")
	}
	if o.Funcs[2].BTF.Linkage != lin {
		t.Error("Write changed a FUNC's linkage in the input")
	}
}
