package bpfcc

import (
	"bytes"
	"debug/elf"
	"strings"
	"testing"
)

// addr_space_cast in inline asm (bpf_arena_common.h's cast_kern and
// cast_user) is written as clang writes it, a mov with offset 1:
// cilium/ebpf's encoder would write the offset as 0, a plain mov.
func TestAddrSpaceCastBytes(t *testing.T) {
	src := `
__attribute__((section("xdp"))) int prog(void *ctx) {
	void *p = ctx;
	asm volatile("%[p] = addr_space_cast(%[p], 0, 1)" : [p] "+r"(p));
	asm volatile(".byte 0xBF; .byte 0x11; .short 1; .long 0x10000" : [p] "+r"(p) :: "r1");
	return p != 0;
}
char _license[] __attribute__((section("license"))) = "GPL";
`
	res, err := Compile("cast.c", Options{Source: []byte(src)})
	if err != nil {
		t.Fatal(err)
	}
	f, err := elf.NewFile(bytes.NewReader(res.Object))
	if err != nil {
		t.Fatal(err)
	}
	text, err := f.Section("xdp").Data()
	if err != nil {
		t.Fatal(err)
	}
	// dst and src registers vary with allocation; op, offset, imm do not.
	var kern, user int
	for i := 0; i+8 <= len(text); i += 8 {
		ins := text[i : i+8]
		if ins[0] == 0xbf && bytes.Equal(ins[2:], []byte{1, 0, 1, 0, 0, 0}) {
			kern++
		}
		if bytes.Equal(ins, []byte{0xbf, 0x11, 1, 0, 0, 0, 1, 0}) {
			user++
		}
	}
	if kern != 1 || user != 1 {
		t.Errorf("addr_space_cast(.., 0, 1) %d times, (r1, 1, 0) %d times, want 1 and 1:\n%s", kern, user, res.Listing)
	}
	if !strings.Contains(res.Listing, "addr_space_cast(r1, 1, 0)") {
		t.Errorf("listing:\n%s", res.Listing)
	}
}
