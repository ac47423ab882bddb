// Tests: a floating constant passed to an integer parameter (a timeout
// written 10E9) is folded to the integer, as clang does: no floating point
// reaches the program.
// RUN: socket
// EXPECT: retval=0
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

static __attribute__((noinline)) __u64 twice(__u64 ns, int small)
{
	return ns * 2 + small;
}

SEC("socket")
int float_const_arg(struct __sk_buff *skb)
{
	if (twice(10E9, 2.0) != 20000000002ULL)
		return 1;
	if (twice(1.2e19, -2.0) != 12000000000000000000ULL * 2 - 2)
		return 2;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: twice: (section .text,
// CHECK: r1 = 10000000000 ll
// CHECK: call twice
// CHECK: r1 = -6446744073709551616 ll
// CHECK: call twice
