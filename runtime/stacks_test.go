package runtime

import (
	"bytes"
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cilium/ebpf/btf"
)

// TestStackKind checks which members are read as stacks: by name, by a
// member's decl tag and by the map's.
func TestStackKind(t *testing.T) {
	buf := []any{uint64(1), uint64(0)}
	for _, c := range []struct {
		name string
		v    any
		tags []string
		want string
	}{
		{"user_stack_id", int64(3), nil, "id"},
		{"kstackid", uint64(3), nil, "id"},
		{"stack", int64(3), nil, ""},
		{"stack", int64(3), []string{StackIDTag}, "id"},
		{"where", int64(3), []string{memberPrefix + StackIDTag}, "id"},
		{"ustack", buf, nil, "buf"},
		{"frames", buf, nil, ""},
		{"frames", buf, []string{memberPrefix + UStackTag}, "buf"},
		{"stack", []any{"x"}, nil, ""},
		{"pid", uint64(1), []string{StackIDTag}, ""},
	} {
		if got := stackKind(c.name, c.v, c.tags); got != c.want {
			t.Errorf("stackKind(%s, %v, %v) = %q, want %q", c.name, c.v, c.tags, got, c.want)
		}
	}
	u64 := &btf.Int{Name: "u64", Size: 8}
	key := &btf.Struct{Name: "key", Size: 16, Members: []btf.Member{
		{Name: "pid", Type: u64},
		{Name: "where", Type: u64, Offset: 64, Tags: []string{StackIDTag}},
	}}
	got := memberTags(key, u64)
	if len(got) != 1 || strings.Join(got["where"], ",") != memberPrefix+StackIDTag {
		t.Errorf("memberTags = %v", got)
	}
}

// TestFormatFolded checks folded lines: root first, user before kernel
// frames, equal stacks added up, sorted.
func TestFormatFolded(t *testing.T) {
	user := []Frame{{Func: "leaf"}, {Func: "mid"}, {Func: "main"}}
	kern := []Frame{{Func: "do_sys", Module: "kernel"}, {Func: "entry", Module: "kernel"}}
	es := []entry{{value: uint64(3)}, {value: uint64(4)}, {value: Record{{"n", uint64(9)}}}}
	per := [][]stackField{
		{{name: "kstack_id", frames: kern}, {name: "ustack_id", frames: user}},
		{{name: "kstack_id", frames: kern}, {name: "ustack_id", frames: user}},
		{{name: "ustack", buf: true, frames: []Frame{{Addr: 0x10}}}},
	}
	want := "0x10 1\nmain;mid;leaf;entry;do_sys 7\n"
	if got := formatFolded(es, per); got != want {
		t.Errorf("formatFolded =\n%s\nwant\n%s", got, want)
	}
}

// selfBase is where selfBinary maps its binary.
const selfBase = 0x555555554000

// selfBinary builds a gcc -g binary with a function f and returns a
// symboliser that maps it at selfBase under pid 0 (never read from
// /proc), f's address there, and the binary.
func selfBinary(t *testing.T) (*symbolizer, uint64, string) {
	t.Helper()
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("needs gcc")
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "f.c")
	os.WriteFile(src, []byte("int f(int x)\n{\n\treturn x + 1;\n}\nint main(void) { return f(1); }\n"), 0o644)
	bin := filepath.Join(dir, "f")
	if out, err := exec.Command("gcc", "-g", "-O0", "-o", bin, src).CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s", err, out)
	}
	es, err := openElfSyms(bin)
	if err != nil {
		t.Fatal(err)
	}
	var fAddr uint64
	for _, s := range es.syms {
		if s.name == "f" {
			fAddr = s.addr
		}
	}
	if fAddr == 0 {
		t.Fatal("no symbol f")
	}
	s := newSymbolizer()
	for _, p := range es.loads {
		s.maps[0] = append(s.maps[0], mapping{start: selfBase + p.Vaddr&^0xfff, end: selfBase + p.Vaddr + p.Memsz, off: p.Off &^ 0xfff, path: bin})
	}
	return s, selfBase + fAddr, bin
}

// TestSymbolizeSelf symbolises a function of a gcc -g binary through
// its ELF symbols and DWARF line table, as a running process maps it.
func TestSymbolizeSelf(t *testing.T) {
	s, f, _ := selfBinary(t)
	fr := s.Frames(0, []uint64{f})[0]
	if fr.Func != "f" || fr.Offset != 0 || filepath.Base(fr.File) != "f.c" || fr.Line != 2 {
		t.Errorf("frame = %+v, want f at f.c:2", fr)
	}
	if k := s.kernel(0xffffffff00000000); k.Module != "kernel" {
		t.Errorf("kernel frame = %+v", k)
	}
}

// An event record with a bpf_get_stack buffer prints the buffer as a
// frame count and its frames below the line; in JSON, as "stacks".
func TestEventStacks(t *testing.T) {
	s, f, _ := selfBinary(t)
	u64 := &btf.Int{Name: "__u64", Size: 8}
	typ := &btf.Struct{Name: "ev", Size: 32, Members: []btf.Member{
		{Name: "pid", Type: &btf.Int{Name: "__u32", Size: 4}, Offset: 0},
		{Name: "ustack", Type: &btf.Array{Index: u64, Type: u64, Nelems: 3}, Offset: 64},
	}}
	raw := make([]byte, 32)
	binary.NativeEndian.PutUint64(raw[8:], f+3)
	v, err := Decode(typ, raw)
	if err != nil {
		t.Fatal(err)
	}
	c := &stackCtx{sym: s}
	stacks := c.recordStacks(memberTags(typ), nil, v)
	var text, js bytes.Buffer
	(&printer{out: &text, errw: &text}).event("events", v, stacks)
	want := "pid=0 ustack=<1 frames>\n  ustack:\n    #0  f+0x3 ("
	if !strings.HasPrefix(text.String(), want) || !strings.Contains(text.String(), "f.c:") {
		t.Errorf("event printed as\n%s\nwant it to start with\n%s", text.String(), want)
	}
	(&printer{out: &js, errw: &js, json: true}).event("events", v, stacks)
	if !strings.Contains(js.String(), `"stacks":{"ustack":[{`) || !strings.Contains(js.String(), `"func":"f"`) {
		t.Errorf("JSON event = %s, want its stacks", js.String())
	}
}

// A process that exited before its mappings were read: a stack taken at
// a probe of f places the binary by its first frame, and names the frames.
func TestStackOfExitedProcess(t *testing.T) {
	_, f, bin := selfBinary(t)
	s := newSymbolizer()
	const pid = 1 << 30 // no such process: nothing to read
	unplaced := s.Frames(pid, []uint64{f})[0]
	if unplaced.Func != "" {
		t.Fatalf("without a probe, frame = %+v; the test shows nothing", unplaced)
	}
	es := s.elf(bin)
	vaddr, ok := es.probeVaddr("f", 0)
	if !ok {
		t.Fatal("no f")
	}
	s.probes = []probeSite{{bin, vaddr}}
	main, _ := es.probeVaddr("main", 0)
	frames := s.Frames(pid, []uint64{f, selfBase + main + 9})
	if frames[0].Func != "f" || frames[0].Line != 2 || frames[1].Func != "main" || frames[1].Offset != 9 {
		t.Errorf("frames = %+v, want f at f.c:2 then main+0x9", frames)
	}
	// An innermost address that is not the probe, page-aligned, places
	// nothing.
	if fr := s.Frames(pid, []uint64{f + 1})[0]; fr.Func != "" {
		t.Errorf("frame at f+1 = %+v, want it unnamed", fr)
	}
}
