// Tests: a global loaded twice with no store between is loaded once, as
// clang does: in `if (test < N) errs[test][i]++` the index the verifier
// bounded must be the one that addresses the array (each use of a global
// materialises its address anew, so the loads share no base register).
// RUN: socket
// EXPECT: retval=0
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

__u32 errs[3][2] = {};
__u32 test = 1;

static __attribute__((noinline)) void inc_errs(__u32 idx)
{
	if (test < 3)
		errs[test][idx]++;
	else
		errs[2][idx]++;
}

SEC("socket")
int global_reload(struct __sk_buff *skb)
{
	__u32 i = skb->len & 1;

	inc_errs(i);
	return errs[1][i] == 1 && errs[0][i] == 0 && errs[2][i] == 0 ? 0 : 1;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: inc_errs: (section .text,
// CHECK: r[[T:[0-9]]] = test ll
// CHECK-NEXT: r[[I:[0-9]]] = *(u32 *)(r[[T]] + 0)
// CHECK-NOT: = test ll
// CHECK: global_reload: (section socket,
