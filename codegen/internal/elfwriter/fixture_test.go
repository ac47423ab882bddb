package elfwriter

import (
	"os"
	"os/exec"
	"testing"

	"github.com/cilium/ebpf/asm"
	"github.com/cilium/ebpf/btf"

	"github.com/bpfcc/bpfcc/codegen/obj"
)

// requireTool returns the path of an external oracle, or skips the test
// with a reason. Under CI=true a missing tool fails the test instead.
func requireTool(t *testing.T, path string) string {
	t.Helper()
	if _, err := os.Stat(path); err != nil {
		if p, err2 := exec.LookPath(path); err2 == nil {
			return p
		}
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s not available under CI: %v", path, err)
		}
		t.Skipf("skipping: %s not available: %v", path, err)
	}
	return path
}

// requireKernel skips (or under CI=true fails) when programs cannot be
// loaded into the running kernel.
func requireKernel(t *testing.T) {
	t.Helper()
	if os.Geteuid() != 0 {
		if os.Getenv("CI") == "true" {
			t.Fatal("loading BPF programs needs root")
		}
		t.Skip("skipping: loading BPF programs needs root")
	}
}

// Shared BTF types, built the way clang describes them.
var (
	tInt      = &btf.Int{Name: "int", Size: 4, Encoding: btf.Signed}
	tU32      = &btf.Int{Name: "unsigned int", Size: 4}
	tU64      = &btf.Int{Name: "unsigned long long", Size: 8}
	tLong     = &btf.Int{Name: "long", Size: 8, Encoding: btf.Signed}
	tArrayIdx = &btf.Int{Name: "__ARRAY_SIZE_TYPE__", Size: 4}
	tSkBuff   = &btf.Struct{Name: "__sk_buff", Size: 192}
)

// uintMember is __uint(name, v): int (*name)[v].
func uintMember(name string, v uint32) btf.Member {
	return btf.Member{Name: name, Type: &btf.Pointer{Target: &btf.Array{Type: tInt, Index: tArrayIdx, Nelems: v}}}
}

// typeMember is __type(name, T): T *name.
func typeMember(name string, typ btf.Type) btf.Member {
	return btf.Member{Name: name, Type: &btf.Pointer{Target: typ}}
}

// mapStruct lays out a BTF map definition: every member is a pointer.
func mapStruct(members ...btf.Member) *btf.Struct {
	s := &btf.Struct{Size: uint32(8 * len(members))}
	for i, m := range members {
		m.Offset = btf.Bits(64 * i)
		s.Members = append(s.Members, m)
	}
	return s
}

// funcBTF describes a function with the given parameters.
func funcBTF(name string, ret btf.Type, params ...btf.FuncParam) *btf.Func {
	return &btf.Func{Name: name, Type: &btf.FuncProto{Return: ret, Params: params}}
}

// le32 encodes little-endian u32 values.
func le32(vs ...uint32) []byte {
	var b []byte
	for _, v := range vs {
		b = append(b, byte(v), byte(v>>8), byte(v>>16), byte(v>>24))
	}
	return b
}

// loadFunc is an ld_imm64 of a function address.
func loadFunc(dst asm.Register, fn string) asm.Instruction {
	ins := asm.LoadImm(dst, 0, asm.DWord)
	ins.Src = asm.PseudoFunc
	return ins.WithReference(fn)
}

// Expected results of the test program.
const (
	wantGV     = 5
	wantRO     = 7
	wantArr1   = 20
	wantLoops  = 4
	wantStored = (wantGV+wantRO+wantArr1+100)*2 + 1 // gadd adds 100, sdouble doubles, +1 from .bss
	wantRet    = wantStored + wantLoops
)

// testObject builds the object the load tests use. The program is the
// hand-compiled form of
//
//	struct { __uint(type, ARRAY); __type(key, u32); __type(value, u64); __uint(max_entries, 4); } counts SEC(".maps");
//	int gv = 5; int arr[2] = {10, 20};          // .data
//	const int ro0 = 1; static const int ro = 7; // .rodata
//	u64 zz;                                     // .bss
//	int gadd(int a) { return a + 100; }
//	static int sdouble(int a) { return a * 2; }
//	static long cb(u64 i, void *ctx) { return 0; }
//	SEC("socket") int prog(struct __sk_buff *skb) {
//		u32 k = 0; u64 *v = bpf_map_lookup_elem(&counts, &k);
//		if (!v) return 0;
//		zz++;
//		*v = sdouble(gadd(gv + ro + arr[1])) + zz;
//		return *v + bpf_loop(4, cb, 0, 0);
//	}
func testObject() *obj.Object {
	counts := &obj.Map{
		Name: "counts",
		BTF: mapStruct(
			uintMember("type", 2), // BPF_MAP_TYPE_ARRAY
			typeMember("key", tU32),
			typeMember("value", tU64),
			uintMember("max_entries", 4),
		),
	}
	prog := &obj.Func{
		Name:    "prog",
		Section: "socket",
		Insns: asm.Instructions{
			asm.Mov.Reg(asm.R6, asm.R1),
			asm.StoreImm(asm.R10, -4, 0, asm.Word),
			asm.Mov.Reg(asm.R2, asm.R10),
			asm.Add.Imm(asm.R2, -4),
			asm.LoadMapPtr(asm.R1, 0).WithReference("counts"),
			asm.FnMapLookupElem.Call(),
			asm.JEq.Imm(asm.R0, 0, "out"),
			asm.Mov.Reg(asm.R7, asm.R0),
			// zz++ (.bss, global)
			asm.LoadImm(asm.R3, 0, asm.DWord).WithReference("zz"),
			asm.LoadMem(asm.R4, asm.R3, 0, asm.DWord),
			asm.Add.Imm(asm.R4, 1),
			asm.StoreMem(asm.R3, 0, asm.R4, asm.DWord),
			asm.Mov.Reg(asm.R9, asm.R4),
			// gv + ro + arr[1]
			asm.LoadImm(asm.R1, 0, asm.DWord).WithReference("gv"),
			asm.LoadMem(asm.R1, asm.R1, 0, asm.Word),
			asm.LoadImm(asm.R2, 0, asm.DWord).WithReference("ro"),
			asm.LoadMem(asm.R2, asm.R2, 0, asm.Word),
			asm.Add.Reg(asm.R1, asm.R2),
			asm.LoadImm(asm.R2, 4, asm.DWord).WithReference("arr"),
			asm.LoadMem(asm.R2, asm.R2, 0, asm.Word),
			asm.Add.Reg(asm.R1, asm.R2),
			asm.Call.Label("gadd"),
			asm.Mov.Reg(asm.R1, asm.R0),
			asm.Call.Label("sdouble"),
			asm.Add.Reg(asm.R0, asm.R9),
			asm.StoreMem(asm.R7, 0, asm.R0, asm.DWord),
			asm.Mov.Reg(asm.R8, asm.R0),
			// bpf_loop(4, cb, 0, 0)
			asm.Mov.Imm(asm.R1, wantLoops),
			loadFunc(asm.R2, "cb"),
			asm.Mov.Imm(asm.R3, 0),
			asm.Mov.Imm(asm.R4, 0),
			asm.FnLoop.Call(),
			asm.Add.Reg(asm.R0, asm.R8),
			asm.Return(),
			asm.Mov.Imm(asm.R0, 0).WithSymbol("out"),
			asm.Return(),
		},
		Lines: []obj.Line{
			{Insn: 0, File: "prog.c", Line: 20, Col: 1, Text: "SEC(\"socket\") int prog(struct __sk_buff *skb) {"},
			{Insn: 1, File: "prog.c", Line: 21, Col: 6, Text: "\tu32 k = 0; u64 *v = bpf_map_lookup_elem(&counts, &k);"},
			{Insn: 6, File: "prog.c", Line: 22, Col: 6, Text: "\tif (!v) return 0;"},
			{Insn: 8, File: "prog.c", Line: 23, Col: 4, Text: "\tzz++;"},
			{Insn: 13, File: "prog.c", Line: 24, Col: 7, Text: "\t*v = sdouble(gadd(gv + ro + arr[1])) + zz;"},
			{Insn: 27, File: "prog.c", Line: 25, Col: 2, Text: "\treturn *v + bpf_loop(4, cb, 0, 0);"},
			{Insn: 34, File: "prog.c", Line: 22, Col: 10, Text: "\tif (!v) return 0;"},
		},
		BTF: funcBTF("prog", tInt, btf.FuncParam{Name: "skb", Type: &btf.Pointer{Target: tSkBuff}}),
	}
	gadd := &obj.Func{
		Name:    "gadd",
		Section: ".text",
		Insns: asm.Instructions{
			asm.Mov.Reg32(asm.R0, asm.R1),
			asm.Add.Imm32(asm.R0, 100),
			asm.Return(),
		},
		Lines: []obj.Line{{Insn: 0, File: "prog.c", Line: 12, Col: 29, Text: "int gadd(int a) { return a + 100; }"}},
		BTF:   funcBTF("gadd", tInt, btf.FuncParam{Name: "a", Type: tInt}),
	}
	sdouble := &obj.Func{
		Name:    "sdouble",
		Section: ".text",
		Static:  true,
		Insns: asm.Instructions{
			asm.Mov.Reg(asm.R0, asm.R1),
			asm.LSh.Imm(asm.R0, 1),
			asm.Return(),
		},
		// Deliberately not starting at instruction 0.
		Lines: []obj.Line{{Insn: 1, File: "prog.c", Line: 13, Col: 38, Text: "static int sdouble(int a) { return a * 2; }"}},
		BTF:   funcBTF("sdouble", tInt, btf.FuncParam{Name: "a", Type: tInt}),
	}
	cb := &obj.Func{
		Name:    "cb",
		Section: ".text",
		Static:  true,
		Insns:   asm.Instructions{asm.Mov.Imm(asm.R0, 0), asm.Return()},
		BTF: funcBTF("cb", tLong,
			btf.FuncParam{Name: "i", Type: tU64},
			btf.FuncParam{Name: "ctx", Type: &btf.Pointer{Target: &btf.Void{}}}),
	}
	return &obj.Object{
		Funcs: []*obj.Func{prog, gadd, sdouble, cb},
		Maps:  []*obj.Map{counts},
		Data: []*obj.DataSection{
			{
				Name:  ".data",
				Bytes: le32(wantGV, 0, 10, wantArr1),
				Align: 4,
				Vars: []*obj.Var{
					{Name: "gv", Offset: 0, Size: 4, BTF: tInt},
					{Name: "arr", Offset: 8, Size: 8, BTF: &btf.Array{Type: tInt, Index: tArrayIdx, Nelems: 2}},
				},
			},
			{
				Name:  ".rodata",
				Bytes: le32(1, wantRO),
				Align: 4,
				Vars: []*obj.Var{
					{Name: "ro0", Offset: 0, Size: 4, BTF: &btf.Const{Type: tInt}},
					{Name: "ro", Offset: 4, Size: 4, Static: true, BTF: &btf.Const{Type: tInt}},
				},
			},
			{
				Name:  ".bss",
				Size:  8,
				Align: 8,
				Vars:  []*obj.Var{{Name: "zz", Offset: 0, Size: 8, BTF: tU64}},
			},
		},
		License: "GPL",
		Debug:   true,
	}
}

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
