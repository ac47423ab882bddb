package codegen

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/bpfcc/bpfcc/ir"
	"github.com/cilium/ebpf/asm"
)

// sampleModule is an XDP-like program with positions, notes, a helper call
// and globals.
func sampleModule(t *testing.T) *ir.Module {
	dir := t.TempDir()
	src := filepath.Join(dir, "prog.c")
	text := "int prog(void *ctx) {\n\tint a = 40;\n\treturn a + 2;\n}\n"
	if err := os.WriteFile(src, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	x := newFunc("xdp_prog", "xdp", 1)
	x.f.Pos = ir.Pos{File: src, Line: 1, Col: 1}
	a := x.mov(ir.Imm(40))
	x.b.Instrs[0].Pos = ir.Pos{File: src, Line: 2, Col: 6}
	x.b.Instrs[0].Note = "a = 40"
	t1 := x.call(helperKtimeGetNS)
	x.b.Instrs[1].Pos = ir.Pos{File: src, Line: 2, Col: 6}
	s := x.alu(ir.Add, false, ir.R(a), ir.R(t1))
	x.b.Instrs[2].Pos = ir.Pos{File: src, Line: 3, Col: 11}
	x.ret(ir.R(s))
	x.b.Instrs[3].Pos = ir.Pos{File: src, Line: 3, Col: 2}
	return &ir.Module{File: src, License: "GPL", Funcs: []*ir.Func{x.f},
		Globals: []*ir.Global{
			{Name: "a", Section: ".data", Size: 1, Align: 1, Init: []byte{7}},
			{Name: "z", Section: ".bss", Size: 8, Align: 8},
			{Name: "b", Section: ".data", Size: 4, Align: 4, Init: []byte{1, 2}},
		}}
}

func TestListing(t *testing.T) {
	m := sampleModule(t)
	before := m.String()
	o := generate(t, m, Options{OptLevel: 2})
	if m.String() != before {
		t.Error("Generate modified its input")
	}
	got := Listing(o)
	want := `xdp_prog: (section xdp, 3 insns, stack 0)
; prog.c:2: int a = 40;
; a = 40
   0: call 5
; prog.c:3: return a + 2;
   1: r0 += 40
   2: exit
`
	if got != want {
		t.Errorf("listing:\n%s\nwant:\n%s", got, want)
	}
	if again := Listing(generate(t, sampleModule(t), Options{OptLevel: 2})); strings.ReplaceAll(again, "", "") != got {
		t.Errorf("listing not deterministic:\n%s\n---\n%s", got, again)
	}
	f := o.Funcs[0]
	if f.Section != "xdp" || f.Insns[0].Symbol() != "xdp_prog" {
		t.Errorf("section %q, first symbol %q", f.Section, f.Insns[0].Symbol())
	}
	if len(f.Lines) < 2 || f.Lines[0].Text != "\tint a = 40;" || f.Lines[0].Line != 2 {
		t.Errorf("lines: %+v", f.Lines)
	}
	for i := 1; i < len(f.Lines); i++ {
		if f.Lines[i].Insn <= f.Lines[i-1].Insn {
			t.Errorf("lines not sorted: %+v", f.Lines)
		}
	}
}

func TestDataSections(t *testing.T) {
	o := generate(t, sampleModule(t), Options{})
	if len(o.Data) != 2 {
		t.Fatalf("%d data sections", len(o.Data))
	}
	d, b := o.Data[0], o.Data[1]
	if d.Name != ".data" || !reflect.DeepEqual(d.Bytes, []byte{7, 0, 0, 0, 1, 2, 0, 0}) || d.Size != 8 || d.Align != 4 {
		t.Errorf(".data = %+v", d)
	}
	if d.Vars[1].Name != "b" || d.Vars[1].Offset != 4 {
		t.Errorf(".data vars = %+v %+v", d.Vars[0], d.Vars[1])
	}
	if b.Name != ".bss" || b.Bytes != nil || b.Size != 8 {
		t.Errorf(".bss = %+v", b)
	}
	if o.License != "GPL" {
		t.Errorf("license %q", o.License)
	}
}

func TestFormatInsn(t *testing.T) {
	o := generate(t, sampleModule(t), Options{CPU: 4})
	l := Listing(o)
	if !strings.Contains(l, "exit") {
		t.Fatal(l)
	}
}

// Instructions only inline asm produces are listed in clang's syntax.
func TestFormatAsmOnlyInsns(t *testing.T) {
	tests := []struct {
		ins  asm.Instruction
		want string
	}{
		{asm.Instruction{OpCode: asm.JCOND.Op(asm.ImmSource), Offset: 1}, "may_goto +1 <2>"},
		{asm.Instruction{OpCode: asm.Call.Op(asm.RegSource), Dst: asm.R3}, "callx r3"},
		{asm.LoadAbs(4, asm.Byte), "r0 = *(u8 *)skb[4]"},
		{asm.LoadInd(asm.R0, asm.R1, 2, asm.Half), "r0 = *(u16 *)skb[r1 + 2]"},
	}
	for _, tt := range tests {
		if got := FormatInsn(tt.ins, 0); got != tt.want {
			t.Errorf("got %q, want %q", got, tt.want)
		}
	}
}
