package bpfcc

import (
	"strings"
	"testing"
)

// asm text that is no BPF instruction is an error only where optimisation
// leaves it reachable, as clang assembles live code only:
// bpf_experimental.h's bpf_cmp writes "s==" in a branch that
// __builtin_strcmp of its operator makes dead.
func TestAsmErrorOnlyWhereReachable(t *testing.T) {
	src := `
__attribute__((section("xdp"))) int prog(void *ctx) {
	int r = 0;
	if (__builtin_strcmp("==", "==") != 0)
		asm volatile("if %[r] s== 0 goto +0" :: [r] "r"(r));
	return r;
}
char _license[] __attribute__((section("license"))) = "GPL";
`
	if _, err := Compile("dead.c", Options{Source: []byte(src)}); err != nil {
		t.Fatalf("dead branch: %v", err)
	}
	live := strings.Replace(src, `!= 0`, `== 0`, 1)
	if _, err := Compile("live.c", Options{Source: []byte(live)}); err == nil || !strings.Contains(err.Error(), `live.c:5:16: error: inline asm line 1: expected a comparison`) {
		t.Errorf("live branch: %v", err)
	}
}
