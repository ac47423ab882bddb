// Tests: static __always_inline functions with more than 5 parameters, the
// shape libbpf's BPF_PROG/BPF_KPROBE macros generate: every call is inlined,
// so no call needs more than BPF's 5 argument registers.
// RUN: socket
// EXPECT: retval=0
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

static __always_inline __u64 mix7(__u64 a, __u64 b, __u64 c, __u64 d, __u64 e, __u64 f, __u64 g)
{
	return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g;
}

static __always_inline int pick6(unsigned long long *ctx, int a, int b, int c, int d, int e)
{
	return ctx[0] == 9 ? a - b + c - d + e : -1;
}

SEC("socket")
int many_params_inline(struct __sk_buff *skb)
{
	volatile __u64 one = 1;
	unsigned long long ctx[1] = { 9 };

	if (mix7(one, one, one, one, one, one, one) != 28)
		return 1;
	if (mix7(7, 6, 5, 4, 3, 2, one) != 84)
		return 2;
	if (pick6(ctx, 10, 1, 2, 3, (int)one) != 9)
		return 3;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: many_params_inline: (section socket,
// CHECK-NOT: call
