package bpfasm

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"strings"
	"testing"

	"github.com/cilium/ebpf/asm"
)

func encode(t *testing.T, insns asm.Instructions) string {
	t.Helper()
	var buf bytes.Buffer
	for _, ins := range insns {
		if _, err := ins.Marshal(&buf, binary.LittleEndian); err != nil {
			t.Fatalf("marshal %v (%#x): %v", ins, uint32(ins.OpCode), err)
		}
	}
	return hex.EncodeToString(buf.Bytes())
}

// Each statement's encoding is what clang-19 -target bpf -mcpu=v4 gives
// for it (llvm-objdump-19 -d).
func TestAssembleMatchesClang(t *testing.T) {
	tests := []struct{ text, want string }{
		{"r0 = 0xffffffff", "b7000000ffffffff"},
		{"r0 = 8 - 1", "b700000007000000"},
		{"r0 = 2 + 3 * 4", "b70000000e000000"},
		{"r0 = *(u32 *)(r1 + 4 * 2)", "6110080000000000"},
		{"w0 = 0xffffffff", "b4000000ffffffff"},
		{"r0 = -5", "b7000000fbffffff"},
		{"r1 = r2", "bf21000000000000"},
		{"w1 = w2", "bc21000000000000"},
		{"r1 = -r1", "8701000000000000"},
		{"w1 = -w1", "8401000000000000"},
		{"r0 = be16 r0", "dc00000010000000"},
		{"r0 = le64 r0", "d400000040000000"},
		{"r0 = bswap32 r0", "d700000020000000"},
		{"r0 = *(u8 *)skb[4]", "3000000004000000"},
		{"r0 = *(u16 *)skb[r1]", "4810000000000000"},
		{"callx r3", "8d03000000000000"},
		{"may_goto +1", "e500010000000000"},
		{"gotol +2", "0600000002000000"},
		{"goto -1", "0500ffff00000000"},
		{"r1 = (s8)r2", "bf21080000000000"},
		{"w1 = (s16)w2", "bc21100000000000"},
		{"r1 = *(s8 *)(r2 - 8)", "9121f8ff00000000"},
		{"w1 = *(u32 *)(r2 + 8)", "6121080000000000"},
		{"r0 = *(u64 *)(r10 - 16)", "79a0f0ff00000000"},
		{"*(u32 *)(r10 - 8) = 5", "620af8ff05000000"},
		{"*(u64*)(r10-8) = 0", "7a0af8ff00000000"},
		{"*(u16 *)(r10 - 8) = w1", "6b1af8ff00000000"},
		{"*(u64 *)(r10 - 8) = r1", "7b1af8ff00000000"},
		{"lock *(u32 *)(r10 - 8) += w1", "c31af8ff00000000"},
		{"lock *(u64 *)(r10 - 8) &= r1", "db1af8ff50000000"},
		{"lock *(u64 *)(r10 - 8) |= r1", "db1af8ff40000000"},
		{"lock *(u64 *)(r10 - 8) ^= r1", "db1af8ffa0000000"},
		{"r0 = atomic_fetch_add((u64 *)(r10 - 8), r0)", "db0af8ff01000000"},
		{"w0 = atomic_fetch_or((u32 *)(r10 - 8), w0)", "c30af8ff41000000"},
		{"r0 = atomic_fetch_xor((u64 *)(r10 - 8), r0)", "db0af8ffa1000000"},
		{"r0 = atomic_fetch_and((u64 *)(r10 - 8), r0)", "db0af8ff51000000"},
		{"r0 = xchg_64(r10 - 8, r0)", "db0af8ffe1000000"},
		{"w0 = xchg32_32(r10 - 8, w0)", "c30af8ffe1000000"},
		{"r0 = cmpxchg_64(r10 - 8, r0, r1)", "db1af8fff1000000"},
		{"w0 = cmpxchg32_32(r10 - 8, w0, w1)", "c31af8fff1000000"},
		{"if w1 s> 5 goto +1", "6601010005000000"},
		{"if r1 & r2 goto -1", "4d21ffff00000000"},
		{"if r1 == 0 goto +3", "1501030000000000"},
		{"if r1 != r2 goto +3", "5d21030000000000"},
		{"if w1 < w2 goto +3", "ae21030000000000"},
		{"if r1 <= 0x7fffffff goto +3", "b5010300ffffff7f"},
		{"if r1 s>= -1 goto +3", "75010300ffffffff"},
		{"if r1 s< r2 goto +3", "cd21030000000000"},
		{"if w1 s<= 3 goto +3", "d601030003000000"},
		{"if r1 > 1 goto +3", "2501030001000000"},
		{"if r1 >= 1 goto +3", "3501030001000000"},
		{"r0 s>>= 3", "c700000003000000"},
		{"w0 s/= w1", "3c10010000000000"},
		{"r0 s%%= 5", "9700010005000000"},
		{"r0 >>= 3", "7700000003000000"},
		{"w0 <<= w1", "6c10000000000000"},
		{"r0 *= 3", "2700000003000000"},
		{"r0 /= r1", "3f10000000000000"},
		{"r0 %%= 7", "9700000007000000"},
		{"r0 -= 1", "1700000001000000"},
		{"r0 ^= r0", "af00000000000000"},
		{"r0 |= 1", "4700000001000000"},
		{"r0 &= 0xff", "57000000ff000000"},
		{"r0 = 5 ll", "18000000050000000000000000000000"},
		{"r1 = 0x80000001 ll", "18010000010000800000000000000000"},
		{"r1 = -1 ll", "18010000ffffffff00000000ffffffff"},
		{"exit", "9500000000000000"},
		{"call 1", "8500000001000000"},
		{"w0 = *(u8 *)(r1 + 0)", "7110000000000000"},
		{"*(u64 *)(r10 - 8) = -1", "7a0af8ffffffffff"},
	}
	for _, tt := range tests {
		insns, err := Assemble(tt.text, nil, 0)
		if err != nil {
			t.Errorf("%s: %v", tt.text, err)
			continue
		}
		if got := encode(t, insns); got != tt.want {
			t.Errorf("%s: got %s, want %s (%v)", tt.text, got, tt.want, insns)
		}
	}
}

func TestAssembleOperandsAndLabels(t *testing.T) {
	ops := []Operand{
		{Name: "out", Kind: KindReg, Reg: asm.R3},
		{Name: "x", Kind: KindReg, Reg: asm.R4},
		{Name: "max", Kind: KindImm, Imm: 100},
		{Name: "map", Kind: KindSym, Sym: "my_map"},
		{Name: "lookup", Kind: KindImm, Imm: 1},
	}
	text := "r1 = %[map] ll;\n" +
		"call %[lookup]\n" +
		"l0_%=: %0 = %[x] /* comment; with a separator */\n" +
		"if %0 <= %[max] goto 1f // note\n" +
		"goto l0_%=; 1: %%r0 = 0\n" +
		"call helper_fn\n"
	// %%r0 is "%r0" after substitution, which no statement accepts: check
	// the error first, then assemble the text without it.
	if _, err := Assemble(text, ops, 7); err == nil {
		t.Fatal("%r0 assembled")
	}
	text = "r1 = %[map] ll;\n" +
		"call %[lookup]\n" +
		"l0_%=: %0 = %[x] /* comment; with a separator */\n" +
		"if %0 <= %[max] goto 1f // note\n" +
		"goto l0_%=; 1: r0 = 0\n" +
		"call helper_fn\n"
	insns, err := Assemble(text, ops, 7)
	if err != nil {
		t.Fatal(err)
	}
	want := "18010000000000000000000000000000" + // r1 = my_map ll
		"8500000001000000" + // call 1
		"bf43000000000000" + // r3 = r4
		"b503010064000000" + // if r3 <= 100 goto +1
		"0500fdff00000000" + // goto -3
		"b700000000000000" + // r0 = 0
		"85100000ffffffff" // call helper_fn
	if got := encode(t, insns); got != want {
		t.Errorf("got  %s\nwant %s\n%v", got, want, insns)
	}
	if insns[0].Reference() != "my_map" || insns[len(insns)-1].Reference() != "helper_fn" {
		t.Errorf("references: %q, %q", insns[0].Reference(), insns[len(insns)-1].Reference())
	}
}

func TestAssembleNumericLabels(t *testing.T) {
	insns, err := Assemble("1: r0 += 1; if r0 < 4 goto 1b; 1: if r0 > 5 goto 1f; goto 1b; 1: exit", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	offs := []int16{0, -2, 1, -2, 0}
	for i, ins := range insns {
		if ins.Offset != offs[i] {
			t.Errorf("insn %d (%v): offset %d, want %d", i, ins, ins.Offset, offs[i])
		}
	}
}

func TestAssembleRawInstruction(t *testing.T) {
	// BPF_RAW_INSN(BPF_LD | BPF_IND | BPF_W, 0, BPF_REG_1, 0, 0x10) as
	// __imm_insn passes it to ".8byte %[name]".
	insns, err := Assemble(".8byte %[ld]", []Operand{{Name: "ld", Kind: KindImm, Imm: 0x10<<32 | 1<<12 | 0x40}}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := encode(t, insns); got != "4010000010000000" {
		t.Errorf("got %s", got)
	}
}

func TestAssembleErrors(t *testing.T) {
	tests := []struct {
		text  string
		line  int
		token string
	}{
		{"r0 = 0;\nr11 = 1", 2, "r11"},
		{"r0 = *(u128 *)(r1 + 0)", 1, "u128"},
		{"goto nowhere", 1, "nowhere"},
		{"exit\n\nr0 = r1 r2", 3, "r2"},
		{"if r0 ~ 1 goto +1", 1, "~"},
		{"r0 = %[nope]", 1, "%[nope]"},
		{"r0 = %3", 1, "%3"},
		{"lock *(u8 *)(r1 + 0) += r2", 1, "end of statement"},
		{"r0 += 0x100000000", 1, "0x100000000"},
		{"frobnicate r0", 1, "frobnicate"},
		{"w1 = 1 ll", 1, "w1"},
		{"r1 = addr_space_cast(r2, 0, 0x10000)", 1, "0x10000"},
		{"w1 = addr_space_cast(r2, 0, 1)", 1, "w1"},
	}
	for _, tt := range tests {
		_, err := Assemble(tt.text, nil, 0)
		var ae *Error
		if !errors.As(err, &ae) {
			t.Errorf("%q: got %v, want an *Error", tt.text, err)
			continue
		}
		if ae.Line != tt.line || ae.Token != tt.token {
			t.Errorf("%q: got line %d token %q (%v), want line %d token %q", tt.text, ae.Line, ae.Token, err, tt.line, tt.token)
		}
	}
}

func TestWrites(t *testing.T) {
	insns, err := Assemble("r6 = 1; *(u64 *)(r10 - 8) = r7; r8 = atomic_fetch_add((u64 *)(r10 - 8), r8); w9 = *(u32 *)(r1 + 0); call 5", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := Writes(insns)
	want := []asm.Register{asm.R0, asm.R1, asm.R2, asm.R3, asm.R4, asm.R5, asm.R6, asm.R8, asm.R9}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("got %v, want %v", got, want)
		}
	}
}

func TestAssembleSuffixesAndRawPairs(t *testing.T) {
	insns, err := Assemble("r1 = 0xffffffff00000000LL ll; if r1 < 5ULL goto +0; .8byte 0x100001118; .8byte 0", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := "1801000000000000" + "00000000ffffffff" + "a501000005000000" + "1811000001000000" + "0000000000000000"
	if got := encode(t, insns); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if _, err := Assemble(".8byte 0x100001118; exit", nil, 0); err == nil {
		t.Error("half a 64-bit load assembled")
	}
}

// The message quotes the statement: verifier-style asm is one long line.
func TestErrorQuotesStatement(t *testing.T) {
	_, err := Assemble("r0 = 0; r0 = r1 r2; exit", nil, 0)
	want := `inline asm line 1: unexpected token at "r2" in "r0 = r1 r2"`
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}

// Data directives spell an instruction piece by piece (bpf_misc.h's raw
// may_goto: .byte 0xe5; .byte 0; .short -3; .long 0), and .rept repeats
// statements, as the GNU assembler does.
func TestDataDirectivesAndRept(t *testing.T) {
	insns, err := Assemble("l0: .byte 0xe5; .byte 0; .short 1; .long 0; r0 = 1; .rept 2; .rept 2; r0 += 1; .endr; .endr; goto l0; .quad 0x95", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := encode(t, insns), "e500010000000000"+"b700000001000000"+strings.Repeat("0700000001000000", 4)+"0500f9ff00000000"+"9500000000000000"; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	for _, bad := range []string{".byte 0xe5; exit", ".byte 256", ".rept 2; r0 = 1", ".endr", ".rept 1048577; r0 = 1; .endr"} {
		if _, err := Assemble(bad, nil, 0); err == nil {
			t.Errorf("%q assembled", bad)
		}
	}
}

// .ifc/.ifnc select statements by comparing two strings (an operand's
// register with a register name, in bpf_experimental.h).
func TestConditionals(t *testing.T) {
	insns, err := Assemble(".ifc %[r], r1; r0 = 1; .else; r0 = 2; .endif; .ifnc %[r], r2; .ifc a, b; r0 = 3; .endif; r0 += 4; .endif",
		[]Operand{{Name: "r", Kind: KindReg, Reg: asm.R1}}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := encode(t, insns), "b700000001000000"+"0700000004000000"; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	for _, bad := range []string{".ifc a; r0 = 1; .endif", ".ifc a, a; r0 = 1", ".endif", ".else"} {
		if _, err := Assemble(bad, nil, 0); err == nil {
			t.Errorf("%q assembled", bad)
		}
	}
}

// addr_space_cast is a mov with offset 1 and the address spaces in the
// immediate, written out or given as data (bpf_arena_common.h); another
// ALU offset cilium/ebpf does not model is refused rather than dropped.
func TestAddrSpaceCast(t *testing.T) {
	want := AddrSpaceCast(asm.R1, asm.R2, 1, 0)
	for _, text := range []string{"r1 = addr_space_cast(r2, 1, 0)", ".byte 0xbf; .byte 0x21; .short 1; .long 0x10000"} {
		insns, err := Assemble(text, nil, 0)
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		if len(insns) != 1 || !IsAddrSpaceCast(insns[0]) || insns[0].Dst != want.Dst || insns[0].Src != want.Src || insns[0].Constant != want.Constant {
			t.Errorf("%q: %v, want %v", text, insns, want)
		}
	}
	if _, err := Assemble(".byte 0xbf; .byte 0x11; .short 2; .long 1", nil, 0); err == nil || !strings.Contains(err.Error(), "offset 2") {
		t.Errorf("mov with offset 2: %v", err)
	}
	if _, err := Assemble(".byte 0xbf; .byte 0x11; .short 8; .long 0", nil, 0); err != nil {
		t.Errorf("movsx: %v", err)
	}
}
