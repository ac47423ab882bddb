// Tests: context fields reached through an index that is constant only
// after unrolling (skb->cb[i] in a loop) are addressed as ctx + offset in
// the load itself: the verifier rejects a context pointer changed by
// arithmetic before a dereference.
// RUN: tc
// EXPECT: retval=0
// ASM: -"r1 += 48"
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

__u32 sum;

SEC("tc")
int ctx_array_loop(struct __sk_buff *skb)
{
	__u32 s = 0;

	for (int i = 0; i < 5; i++)
		s += skb->cb[i];
	sum = s;
	return s == 0 ? 0 : 1;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: ctx_array_loop: (section tc,
// CHECK-NOT: r1 +=
// CHECK: = *(u32 *)(r1 + 48)
// CHECK: = *(u32 *)(r1 + 52)
// CHECK: = *(u32 *)(r1 + 56)
// CHECK: = *(u32 *)(r1 + 60)
// CHECK: = *(u32 *)(r1 + 64)
