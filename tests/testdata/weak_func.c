// Tests: a __weak function is never inlined, however small: another
// object's definition may replace it at link time. clang calls it through
// its own STB_WEAK symbol (TestWeakFunction checks the symbol), and the
// verifier checks it as a global function.
// RUN: xdp
// EXPECT: retval=7
// ASM: "call weak_triple"
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

__weak int weak_triple(int x)
{
	return x * 3;
}

SEC("xdp")
int weak_func(struct xdp_md *ctx)
{
	return weak_triple(2) + 1;
}

char _license[] SEC("license") = "GPL";

// CHECK: weak_triple: (section .text,
// CHECK: weak_func: (section xdp,
// CHECK: call weak_triple
