package elfwriter

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cilium/ebpf"
	"github.com/cilium/ebpf/asm"
	"github.com/cilium/ebpf/btf"
)

func mustWrite(t *testing.T) []byte {
	t.Helper()
	out, err := Write(testObject())
	if err != nil {
		t.Fatalf("Write: %v", err)
	}
	return out
}

// TestCiliumParses checks what cilium/ebpf's ELF reader sees.
func TestCiliumParses(t *testing.T) {
	spec, err := ebpf.LoadCollectionSpecFromReader(bytes.NewReader(mustWrite(t)))
	if err != nil {
		t.Fatalf("LoadCollectionSpecFromReader: %v", err)
	}

	if len(spec.Programs) != 1 {
		t.Fatalf("programs: got %d, want 1 (.text functions are hidden)", len(spec.Programs))
	}
	p := spec.Programs["prog"]
	if p == nil {
		t.Fatal("program prog missing")
	}
	if p.Type != ebpf.SocketFilter || p.SectionName != "socket" || p.License != "GPL" {
		t.Errorf("prog: type %v section %q license %q", p.Type, p.SectionName, p.License)
	}

	// The linked program contains all three subprograms, each with FUNC
	// metadata, and the references are symbolic.
	funcs := map[string]string{}
	refs := map[string]bool{}
	var lines []string
	for _, ins := range p.Instructions {
		if fn := btf.FuncMetadata(&ins); fn != nil {
			funcs[ins.Symbol()] = fn.Name
		}
		if r := ins.Reference(); r != "" {
			refs[r] = true
		}
		if src := ins.Source(); src != nil {
			lines = append(lines, src.String())
			if l, ok := src.(*btf.Line); ok && l.FileName() != "prog.c" && l.LineNumber() != 0 {
				t.Errorf("line %q: file %q", src, l.FileName())
			}
		}
	}
	for _, name := range []string{"prog", "gadd", "sdouble", "cb"} {
		if funcs[name] != name {
			t.Errorf("function %s: FUNC metadata %q", name, funcs[name])
		}
	}
	for _, r := range []string{"counts", ".data", ".rodata", ".bss", "gadd", "sdouble", "cb"} {
		if !refs[r] {
			t.Errorf("no instruction references %q (have %v)", r, refs)
		}
	}
	want := []string{
		`SEC("socket") int prog(struct __sk_buff *skb) {`,
		"\tzz++;",
		"\t*v = sdouble(gadd(gv + ro + arr[1])) + zz;",
		"int gadd(int a) { return a + 100; }",
		"static int sdouble(int a) { return a * 2; }",
	}
	joined := strings.Join(lines, "\n")
	for _, w := range want {
		if !strings.Contains(joined, w) {
			t.Errorf("line info %q missing from %q", w, joined)
		}
	}

	// Maps: counts and the three data sections.
	m := spec.Maps["counts"]
	if m == nil || m.Type != ebpf.Array || m.KeySize != 4 || m.ValueSize != 8 || m.MaxEntries != 4 {
		t.Fatalf("counts: %+v", m)
	}
	for name, size := range map[string]uint32{".data": 16, ".rodata": 8, ".bss": 8} {
		ds := spec.Maps[name]
		if ds == nil {
			t.Errorf("data map %s missing", name)
			continue
		}
		if ds.ValueSize != size {
			t.Errorf("%s: value size %d, want %d", name, ds.ValueSize, size)
		}
		if _, ok := ds.Value.(*btf.Datasec); !ok {
			t.Errorf("%s: value type %T, want *btf.Datasec", name, ds.Value)
		}
	}
	// Global variables are visible, static ones are not.
	for _, name := range []string{"gv", "arr", "ro0", "zz"} {
		if spec.Variables[name] == nil {
			t.Errorf("variable %s missing", name)
		}
	}
	if spec.Variables["ro"] != nil {
		t.Error("static variable ro is exported")
	}
	if v := spec.Variables["arr"]; v != nil && (v.Offset != 8 || v.Size() != 8) {
		t.Errorf("arr: offset %d size %d", v.Offset, v.Size())
	}
}

// TestKernelLoadAndRun loads the object with cilium/ebpf and runs it.
func TestKernelLoadAndRun(t *testing.T) {
	requireKernel(t)
	spec, err := ebpf.LoadCollectionSpecFromReader(bytes.NewReader(mustWrite(t)))
	if err != nil {
		t.Fatal(err)
	}
	coll, err := ebpf.NewCollectionWithOptions(spec, ebpf.CollectionOptions{
		Programs: ebpf.ProgramOptions{LogLevel: ebpf.LogLevelInstruction},
	})
	if err != nil {
		t.Fatalf("NewCollection: %+v", err)
	}
	defer coll.Close()

	ret, err := coll.Programs["prog"].Run(&ebpf.RunOptions{Data: make([]byte, 64)})
	if err != nil {
		t.Fatalf("test run: %v", err)
	}
	if ret != wantRet {
		t.Errorf("return value %d, want %d", ret, wantRet)
	}
	var got uint64
	if err := coll.Maps["counts"].Lookup(uint32(0), &got); err != nil {
		t.Fatal(err)
	}
	if got != wantStored {
		t.Errorf("counts[0] = %d, want %d", got, wantStored)
	}
	var bss uint64
	if err := coll.Variables["zz"].Get(&bss); err != nil {
		t.Fatal(err)
	}
	if bss != 1 {
		t.Errorf("zz = %d, want 1", bss)
	}
}

// TestDeterministic writes the same object twice, from separately built
// inputs.
func TestDeterministic(t *testing.T) {
	a := mustWrite(t)
	for i := 0; i < 5; i++ {
		if b := mustWrite(t); !bytes.Equal(a, b) {
			t.Fatalf("run %d: output differs", i)
		}
	}
}

// TestBigEndian checks that a big-endian object parses with the right
// byte order.
func TestBigEndian(t *testing.T) {
	o := testObject()
	o.ByteOrder = binary.BigEndian
	out, err := Write(o)
	if err != nil {
		t.Fatal(err)
	}
	if out[5] != 2 { // EI_DATA = ELFDATA2MSB
		t.Fatalf("EI_DATA = %d", out[5])
	}
	spec, err := ebpf.LoadCollectionSpecFromReader(bytes.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	if spec.ByteOrder != binary.BigEndian {
		t.Errorf("byte order %v", spec.ByteOrder)
	}
	p := spec.Programs["prog"]
	if p == nil || p.Instructions[0].OpCode != asm.Mov.Op(asm.RegSource) || p.Instructions[0].Dst != asm.R6 {
		t.Fatalf("prog: %v", p)
	}
	if m := spec.Maps["counts"]; m == nil || m.MaxEntries != 4 {
		t.Errorf("counts: %+v", m)
	}
}

// writeTemp writes an object into the test's temporary directory.
func writeTemp(t *testing.T, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestDump writes the test object to $ELFWRITER_DUMP for manual
// inspection with llvm-readelf, llvm-objdump and bpftool.
func TestDump(t *testing.T) {
	path := os.Getenv("ELFWRITER_DUMP")
	if path == "" {
		t.Log("set ELFWRITER_DUMP=file to write the test object")
		return
	}
	if err := os.WriteFile(path, mustWrite(t), 0o644); err != nil {
		t.Fatal(err)
	}
}
