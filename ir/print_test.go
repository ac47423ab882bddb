package ir

import (
	"strings"
	"testing"
)

// sample builds a small function exercising most operations.
func sample() *Func {
	f := &Func{Name: "prog", Section: "xdp", Returns: true}
	ctx := f.NewReg()
	f.Params = []Reg{ctx}
	s := f.NewSlot("buf", 16, 8)
	b0, b1, b2 := f.NewBlock(), f.NewBlock(), f.NewBlock()
	r2, r3, r4, r5 := f.NewReg(), f.NewReg(), f.NewReg(), f.NewReg()
	b0.Instrs = []*Instr{
		{Op: OpLoad, Dst: r2, A: R(ctx), Off: 4, Size: 1, Space: SpaceCtx, Note: "from ctx"},
		{Op: OpALU, ALU: Add, W32: true, Dst: r3, A: R(r2), B: Imm(7)},
		{Op: OpFrameAddr, Dst: r4, Slot: s, Off: 8},
		{Op: OpStore, A: R(r4), Off: -8, B: R(r3), Size: 4, Space: SpaceStack},
		{Op: OpCall, Dst: r5, Imm: 1, Args: []Operand{R(r4), Imm(3)}},
		{Op: OpBranch, Cond: Ult, W32: true, A: R(r3), B: Imm(10), Then: b1, Else: b2},
	}
	b1.Instrs = []*Instr{{Op: OpRet, A: R(r5)}}
	b2.Instrs = []*Instr{{Op: OpRet, A: Imm(0)}}
	return f
}

func TestFuncString(t *testing.T) {
	got := sample().String()
	want := `func prog(r1) section "xdp" returns {
  slot s0 "buf" size 16 align 8
b0:
  ; from ctx
  r2 = load.u8 [r1+4] ctx
  r3 = add32 r2, 7
  r4 = frame s0+8
  store.u32 [r4-8], r3 stack
  r5 = call 1(r4, 3)
  if r3 ult32 10 goto b1 else b2
b1:
  ret r5
b2:
  ret 0
}
`
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestInstrStrings(t *testing.T) {
	for _, tc := range []struct {
		in   Instr
		want string
	}{
		{Instr{Op: OpAtomic, Atomic: AtomicAdd, Fetch: true, Dst: 3, A: R(1), B: R(2), Size: 8}, "r3 = atomic.fetch.add.u64 [r1], r2"},
		{Instr{Op: OpAtomic, Atomic: AtomicCmpXchg, Fetch: true, Dst: 3, A: R(1), B: R(2), C: Imm(5), Size: 4}, "r3 = atomic.cmpxchg.u32 [r1], r2, 5"},
		{Instr{Op: OpExt, Signed: true, Bits: 16, Dst: 2, A: R(1)}, "r2 = sext16 r1"},
		{Instr{Op: OpLoad, Signed: true, Size: 2, Dst: 2, A: R(1), Off: -2}, "r2 = load.s16 [r1-2]"},
		{Instr{Op: OpSymAddr, Dst: 2, Sym: "cnt", Off: 4}, "r2 = sym cnt+4"},
		{Instr{Op: OpMapPtr, Dst: 2, Sym: "events"}, "r2 = map events"},
		{Instr{Op: OpCallFunc, Sym: "f", Args: []Operand{R(1)}}, "callfunc f(r1)"},
		{Instr{Op: OpBswap, Bits: 32, Dst: 2, A: R(1)}, "r2 = bswap32 r1"},
		{Instr{Op: OpNeg, W32: true, Dst: 2, A: R(1)}, "r2 = neg32 r1"},
	} {
		if got := tc.in.String(); got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
}

func TestModuleString(t *testing.T) {
	m := &Module{File: "a.c", License: "GPL", Funcs: []*Func{sample()},
		Globals: []*Global{{Name: "g", Section: ".data", Size: 4, Align: 4, Init: []byte{1, 0, 0, 0}}},
		Maps:    []*Map{{Name: "m"}}}
	s := m.String()
	for _, want := range []string{`module "a.c"`, `license "GPL"`, "map m\n", `global g section ".data" size 4 align 4 init 01000000`, "func prog(r1)"} {
		if !strings.Contains(s, want) {
			t.Errorf("module dump lacks %q:\n%s", want, s)
		}
	}
	if s != m.String() {
		t.Error("module dump is not stable")
	}
}
