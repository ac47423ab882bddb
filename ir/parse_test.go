package ir

import (
	"errors"
	"strings"
	"testing"
)

// TestParseRoundTrip: parsing what the printer prints and printing it
// again gives the same text, for a function using every printable
// operation and a module header.
func TestParseRoundTrip(t *testing.T) {
	f := sample()
	s := f.Slots[0]
	r := f.NewReg()
	f.Hidden, f.Static, f.Inline = true, true, true
	s.Volatile = true
	b := f.Blocks[1]
	b.Instrs = append([]*Instr{
		{Op: OpLoad, Dst: r, Slot: s, Off: 4, Size: 2, Signed: true, Space: SpaceStack, Volatile: true},
		{Op: OpStore, Slot: s, Off: -2, B: Imm(-5), Size: 8},
		{Op: OpAtomic, Atomic: AtomicCmpXchg, Fetch: true, Dst: r, A: R(1), Off: 8, B: R(2), C: Imm(3), Size: 4, Space: SpaceMapValue},
		{Op: OpAtomic, Atomic: AtomicAdd, Fetch: true, Dst: r, A: R(1), B: R(2), Size: 8},
		{Op: OpAtomic, Atomic: AtomicOr, A: R(1), B: R(2), Size: 4},
		{Op: OpNeg, W32: true, Dst: r, A: R(2)},
		{Op: OpExt, Signed: true, Bits: 16, Dst: r, A: R(2)},
		{Op: OpBswap, Bits: 32, Dst: r, A: R(2)},
		{Op: OpSymAddr, Dst: r, Sym: ".str.1", Off: -3},
		{Op: OpMapPtr, Dst: r, Sym: "events"},
		{Op: OpFuncAddr, Dst: r, Sym: "cb"},
		{Op: OpCallFunc, Dst: r, Sym: "helper", Args: []Operand{R(2), Imm(-1)}},
		{Op: OpCallFunc, Sym: "v"},
		{Op: OpCall, Dst: r, Size: 2, Args: []Operand{R(1), Imm(12)}},
		{Op: OpMov, Dst: r, A: Imm(-9223372036854775808), Note: "two\n\nlines"},
		{Op: OpBranch, Cond: Set, A: R(r), B: Imm(1), Then: f.Blocks[2], Else: f.Blocks[0], Unroll: 8, Likely: LikelyElse},
	}, b.Instrs[:0]...)
	m := &Module{File: "a.c", License: "GPL", Version: 7, HasVersion: true, Funcs: []*Func{f},
		Maps:    []*Map{{Name: "outer", Static: true, Inner: []MapInit{{Off: 8, Sym: "inner"}}}},
		Globals: []*Global{{Name: "g", Section: ".rodata", Size: 4, Align: 4, Init: []byte{1, 2}, Const: true, Relocs: []DataReloc{{Off: 0, Sym: "x", Addend: -4}}}}}
	text := m.String()
	back, err := Parse(text)
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	if got := back.String(); got != text {
		t.Errorf("round trip:\n%s\nwant:\n%s", got, text)
	}
	if err := Check(back.Funcs[0]); err != nil {
		t.Error(err)
	}
	if back.Funcs[0].NextReg != r+1 {
		t.Errorf("NextReg %d, want %d", back.Funcs[0].NextReg, r+1)
	}
}

// TestParseErrors: malformed text is an error naming the line; asm is
// unsupported.
func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"func f() {\nb0:\n  r1 = frob r2, r3\n}\n", `line 3: "r1 = frob r2, r3": unknown operation "frob"`},
		{"func f() {\nb0:\n  goto b4\n}\n", "block b4 used and not defined"},
		{"func f() {\nb0:\n  ret 0\n", "no closing brace"},
		{"func f() {\n  ret 0\n}\n", "instruction before the first block label"},
		{"func f() {\nb0:\n  r1 = load.u3 [r2]\n}\n", `bad memory type "u3"`},
		{"bogus\n", `unknown line "bogus"`},
	} {
		_, err := Parse(tc.text)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.text, err, tc.want)
		}
	}
	_, err := Parse("func f() {\nb0:\n  asm 1 insns () \n  ret 0\n}\n")
	if !errors.Is(err, ErrUnsupported) {
		t.Errorf("asm: %v, want ErrUnsupported", err)
	}
}
