// Tests: a __builtin_trap() (libbpf's __bpf_unreachable) that inlining and
// constant folding remove compiles, as with clang; one that stays is an
// error (reject/builtin_trap_reachable.c).
// RUN: socket
// EXPECT: retval=0
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

static __attribute__((always_inline)) int width(int kind)
{
	switch (kind) {
	case 1:
		return 8;
	case 2:
		return 16;
	default:
		__builtin_trap();
	}
	return 0;
}

SEC("socket")
int trap_eliminated(struct __sk_buff *skb)
{
	if (width(1) + width(2) != 24)
		return 1;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: trap_eliminated: (section socket, 2 insns, stack 0)
// CHECK-NOT: call
// CHECK: r0 = 0
// CHECK-NEXT: exit
