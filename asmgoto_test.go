package bpfcc

import (
	"os"
	"testing"

	"github.com/cilium/ebpf"
)

// asm goto jumps from the asm text to C labels; GNU local labels
// (__label__) in a statement-expression macro are each expansion's own,
// and the expression's value may follow its label (bpf_experimental.h's
// bpf_cmp_likely and can_loop).
func TestAsmGotoLocalLabels(t *testing.T) {
	src := `
#define gt(x, n) ({ __label__ yes; int r = 1;				\
	asm volatile goto("if %[v] > %[k] goto %l[yes]" :: [v] "r"(x), [k] "i"(n) :: yes); \
	r = 0; yes: r; })
#define can_loop ({ __label__ l_break, l_continue; int ret = 1;	\
	asm volatile goto("may_goto %l[l_break]" :::: l_break);	\
	goto l_continue;					\
	l_break: ret = 0;					\
	l_continue:;						\
	ret; })
static unsigned (*bpf_get_prandom_u32)(void) = (void *)7;
__attribute__((section("xdp"))) int prog(void *ctx) {
	unsigned x = bpf_get_prandom_u32() & 1;
	int n = 0;
	for (int i = 0; i < 50 && can_loop; i++)
		n++;
	return (n == 50) * 100 + gt(x + 5, 4) * 10 + gt(x, 5);
}
char _license[] __attribute__((section("license"))) = "GPL";
`
	res, err := Compile("asmgoto.c", Options{Source: []byte(src)})
	if err != nil {
		t.Fatal(err)
	}
	if os.Getuid() != 0 {
		t.Skip("not root: compiled, not run")
	}
	coll, err := ebpf.NewCollection(res.Spec)
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	defer coll.Close()
	ret, err := coll.Programs["prog"].Run(&ebpf.RunOptions{Data: make([]byte, 64)})
	if err != nil || ret != 110 {
		t.Errorf("run: %d %v, want 110", ret, err)
	}
}

// An "m" operand is memory at an address: "*(u64 *)%[x]" reads it.
func TestAsmMemoryOperand(t *testing.T) {
	src := `
__attribute__((section("xdp"))) int prog(void *ctx) {
	struct { long a, b; } s = { 3, 4 };
	long r;
	asm volatile("%[r] = *(u64 *)%[b]; %[r] += 2" : [r] "=r"(r) : [b] "m"(s.b));
	return r;
}
char _license[] __attribute__((section("license"))) = "GPL";
`
	res, err := Compile("mem.c", Options{Source: []byte(src)})
	if err != nil {
		t.Fatal(err)
	}
	if os.Getuid() != 0 {
		t.Skip("not root: compiled, not run")
	}
	coll, err := ebpf.NewCollection(res.Spec)
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	defer coll.Close()
	ret, err := coll.Programs["prog"].Run(&ebpf.RunOptions{Data: make([]byte, 64)})
	if err != nil || ret != 6 {
		t.Errorf("run: %d %v, want 6", ret, err)
	}
}
