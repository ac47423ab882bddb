package runtime

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cilium/ebpf"
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
	got := memberTags(&ebpf.MapSpec{Key: key, Value: u64})
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

// TestSymbolizeSelf symbolises a function of a gcc -g binary through
// its ELF symbols and DWARF line table, as a running process maps it.
func TestSymbolizeSelf(t *testing.T) {
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
	// Map the file as the loader would, under pid 0 (never read from /proc).
	const base = 0x555555554000
	s := newSymbolizer()
	for _, p := range es.loads {
		s.maps[0] = append(s.maps[0], mapping{start: base + p.Vaddr&^0xfff, end: base + p.Vaddr + p.Memsz, off: p.Off &^ 0xfff, path: bin})
	}
	fr := s.Frames(0, []uint64{base + fAddr})[0]
	if fr.Func != "f" || fr.Offset != 0 || filepath.Base(fr.File) != "f.c" || fr.Line != 2 {
		t.Errorf("frame = %+v, want f at f.c:2", fr)
	}
	if k := s.kernel(0xffffffff00000000); k.Module != "kernel" {
		t.Errorf("kernel frame = %+v", k)
	}
}
