package elfwriter

import (
	"bytes"
	"debug/elf"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cilium/ebpf"
	"github.com/cilium/ebpf/asm"
	"github.com/cilium/ebpf/btf"

	"github.com/bpfcc/bpfcc/codegen/obj"
)

// mapsObject has a legacy-style hash map (key_size/value_size members),
// a map-in-map with an initialiser, and a ring buffer with an output record
// type. Its program touches the legacy map so cilium keeps it.
func mapsObject() *obj.Object {
	legacy := &obj.Map{
		Name: "legacy",
		BTF: mapStruct(
			uintMember("type", 1), // BPF_MAP_TYPE_HASH
			uintMember("key_size", 4),
			uintMember("value_size", 16),
			uintMember("max_entries", 8),
		),
	}
	innerDef := mapStruct(
		uintMember("type", 2),
		typeMember("key", tU32),
		typeMember("value", tU32),
		uintMember("max_entries", 1),
	)
	innerDef.Name = "inner"
	in1 := &obj.Map{Name: "in1", BTF: innerDef}
	outer := &obj.Map{
		Name: "outer",
		BTF: mapStruct(
			uintMember("type", 12), // BPF_MAP_TYPE_ARRAY_OF_MAPS
			uintMember("max_entries", 2),
			typeMember("key", tU32),
			btf.Member{Name: "values", Type: &btf.Array{Type: &btf.Pointer{Target: innerDef}, Index: tArrayIdx, Nelems: 0}},
		),
		Inner: []obj.MapInit{{Off: 24 + 8, Sym: "in1"}}, // .values[1] = &in1
	}
	outer.BTF.Size = 24 // the flexible array adds nothing
	events := &obj.Map{
		Name: "events",
		BTF:  mapStruct(uintMember("type", 27), uintMember("max_entries", 4096)), // RINGBUF
	}
	event := &btf.Struct{Name: "event", Size: 16, Members: []btf.Member{
		{Name: "pid", Type: tU32},
		{Name: "ts", Type: tU64, Offset: 64},
	}}
	prog := &obj.Func{
		Name:    "touch",
		Section: "socket",
		Insns: asm.Instructions{
			asm.StoreImm(asm.R10, -4, 3, asm.Word),
			asm.Mov.Reg(asm.R2, asm.R10),
			asm.Add.Imm(asm.R2, -4),
			asm.LoadMapPtr(asm.R1, 0).WithReference("legacy"),
			asm.FnMapLookupElem.Call(),
			asm.Mov.Imm(asm.R0, 0),
			asm.Return(),
		},
		Lines: []obj.Line{{Insn: 0, File: "maps.c", Line: 3, Text: "int touch() {"}},
		BTF:   funcBTF("touch", tInt, btf.FuncParam{Name: "skb", Type: &btf.Pointer{Target: tSkBuff}}),
	}
	return &obj.Object{
		Funcs:   []*obj.Func{prog},
		Maps:    []*obj.Map{legacy, in1, outer, events},
		License: "Dual MIT/GPL",
		Debug:   true,
		Output:  map[string]btf.Type{"events": event},
	}
}

func TestMapsParse(t *testing.T) {
	out, err := Write(mapsObject())
	if err != nil {
		t.Fatal(err)
	}
	spec, err := ebpf.LoadCollectionSpecFromReader(bytes.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	if m := spec.Maps["legacy"]; m == nil || m.Type != ebpf.Hash || m.KeySize != 4 || m.ValueSize != 16 || m.MaxEntries != 8 {
		t.Errorf("legacy: %+v", m)
	}
	o := spec.Maps["outer"]
	if o == nil || o.Type != ebpf.ArrayOfMaps || o.InnerMap == nil || o.InnerMap.Type != ebpf.Array {
		t.Fatalf("outer: %+v", o)
	}
	if len(o.Contents) != 1 || o.Contents[0].Key != uint32(1) || o.Contents[0].Value != "in1" {
		t.Errorf("outer contents: %+v", o.Contents)
	}
	ev := spec.Maps["events"]
	if ev == nil || ev.Type != ebpf.RingBuf {
		t.Fatalf("events: %+v", ev)
	}
	if !slices.Contains(ev.Tags, OutputTag) {
		t.Errorf("events tags %v lack %q", ev.Tags, OutputTag)
	}
	if slices.Contains(spec.Maps["legacy"].Tags, OutputTag) {
		t.Error("legacy map tagged as output")
	}
	var v *btf.Var
	if err := spec.Types.TypeByName(OutputVarPrefix+"events", &v); err != nil {
		t.Fatalf("output var: %v", err)
	}
	if s, ok := v.Type.(*btf.Struct); !ok || s.Name != "event" || len(s.Members) != 2 {
		t.Errorf("output record type: %v", v.Type)
	}
}

func TestMapsKernel(t *testing.T) {
	requireKernel(t)
	out, err := Write(mapsObject())
	if err != nil {
		t.Fatal(err)
	}
	spec, err := ebpf.LoadCollectionSpecFromReader(bytes.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	coll, err := ebpf.NewCollection(spec)
	if err != nil {
		t.Fatalf("NewCollection: %v", err)
	}
	defer coll.Close()

	legacy := coll.Maps["legacy"]
	val := bytes.Repeat([]byte{0xab}, 16)
	if err := legacy.Put(uint32(3), val); err != nil {
		t.Fatal(err)
	}
	got := make([]byte, 16)
	if err := legacy.Lookup(uint32(3), &got); err != nil || !bytes.Equal(got, val) {
		t.Errorf("legacy lookup: %x, %v", got, err)
	}
	var innerID ebpf.MapID
	if err := coll.Maps["outer"].Lookup(uint32(1), &innerID); err != nil {
		t.Fatalf("outer[1]: %v", err)
	}
	info, err := coll.Maps["in1"].Info()
	if err != nil {
		t.Fatal(err)
	}
	if id, _ := info.ID(); id != innerID {
		t.Errorf("outer[1] = map %d, want in1 = %d", innerID, id)
	}
	if ret, err := coll.Programs["touch"].Run(&ebpf.RunOptions{Data: make([]byte, 64)}); err != nil || ret != 0 {
		t.Errorf("run: %d, %v", ret, err)
	}
}

// bpftoolLoadall loads an object with libbpf through bpftool, pinning the
// programs under a fresh directory that is removed afterwards. It returns
// the pin directory.
func bpftoolLoadall(t *testing.T, bpftool string, data []byte) string {
	t.Helper()
	requireKernel(t)
	path := writeTemp(t, "obj.o", data)
	pin := fmt.Sprintf("/sys/fs/bpf/bpfcc_elfwriter_%d_%d", os.Getpid(), time.Now().UnixNano())
	t.Cleanup(func() { os.RemoveAll(pin) })
	if out, err := exec.Command(bpftool, "prog", "loadall", path, pin).CombinedOutput(); err != nil {
		t.Fatalf("bpftool prog loadall: %v\n%s", err, out)
	}
	return pin
}

func TestBpftool(t *testing.T) {
	bpftool := requireTool(t, "/usr/sbin/bpftool")
	pin := bpftoolLoadall(t, bpftool, mustWrite(t))
	out, err := exec.Command(bpftool, "prog", "dump", "xlated", "pinned", filepath.Join(pin, "prog"), "linum").CombinedOutput()
	if err != nil {
		t.Fatalf("dump xlated: %v\n%s", err, out)
	}
	dump := string(out)
	for _, want := range []string{
		"*v = sdouble(gadd(gv + ro + arr[1])) + zz; [file:prog.c line_num:24 line_col:7]",
		"int gadd(int a) { return a + 100; } [file:prog.c line_num:12 line_col:29]",
		"static int sdouble(int a) { return a * 2; } [file:prog.c line_num:13 line_col:38]",
		"zz++; [file:prog.c line_num:23 line_col:4]",
	} {
		if !strings.Contains(dump, want) {
			t.Errorf("xlated dump lacks %q:\n%s", want, dump)
		}
	}
}

func TestBpftoolMaps(t *testing.T) {
	bpftool := requireTool(t, "/usr/sbin/bpftool")
	out, err := Write(mapsObject())
	if err != nil {
		t.Fatal(err)
	}
	// libbpf creates every map, loads the whole .BTF (output VAR and decl
	// tag included) into the kernel and fills outer from .rel.maps.
	pin := bpftoolLoadall(t, bpftool, out)
	if _, err := os.Stat(filepath.Join(pin, "touch")); err != nil {
		t.Fatalf("program not pinned: %v", err)
	}
}

// TestKernelAcceptsBTF loads the raw .BTF sections, exactly as written,
// into the kernel (libbpf does the same, but silently carries on without
// BTF when the kernel rejects it).
func TestKernelAcceptsBTF(t *testing.T) {
	requireKernel(t)
	for name, o := range map[string]*obj.Object{"test": testObject(), "maps": mapsObject()} {
		out, err := Write(o)
		if err != nil {
			t.Fatal(err)
		}
		f, err := elf.NewFile(bytes.NewReader(out))
		if err != nil {
			t.Fatal(err)
		}
		raw, err := f.Section(".BTF").Data()
		if err != nil {
			t.Fatal(err)
		}
		h, err := btf.NewHandleFromRawBTF(raw)
		if err != nil {
			t.Fatalf("%s: kernel rejects .BTF: %v", name, err)
		}
		h.Close()
	}
}
