// Tests: a loop that can leave early on what a volatile load read (a
// search of a const volatile array the loader fills, as xdp_sample's
// IN_SET) stays a loop: copies of it could never fold, so bpfcc does not
// unroll it on its own (a backward jump is left, no element is addressed
// by a constant offset past the first).
// RUN: socket
// EXPECT: retval=1
// ASM: "goto -"
// ASM: -"match + 8 ll"
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

const volatile int match[32] = {};

SEC("socket")
int volatile_search(struct __sk_buff *skb)
{
	int res = !match[0];

	for (int i = 0; i < 32 && match[i]; i++) {
		res = match[i] == skb->ifindex;
		if (res)
			break;
	}
	return res;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK-NOT: match + 8 ll
// CHECK: [[P:r[0-9]]] = match ll
// CHECK: r{{[0-9]}} = *(u32 *)([[P]] + 0)
// CHECK: if w{{[0-9]}} < 32 goto -
