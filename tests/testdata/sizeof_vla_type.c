// Tests: sizeof of a variable-length array type is computed at run time,
// its lengths times its element's size, as C says (cilium's build_bug_on(E),
// (void)sizeof(char[1 - 2*!!(E)]), with E constant only once its
// always-inline function is inlined: "sizeof of a type whose size is not
// known at compile time" before). A 20-byte packet is 6 bytes past its
// Ethernet header, as a socket filter sees it: 6 * 3 * 4 + (6 + 1) is 79.
// RUN: socket
// PACKET: zeros len=20
// EXPECT: retval=79
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define build_bug_on(E) ((void)sizeof(char[1 - 2 * !!(E)]))

static __always_inline unsigned long words(unsigned long off)
{
	build_bug_on((off + 1) * sizeof(__u32) > 28);
	return off;
}

SEC("socket")
int sizeof_vla_type(struct __sk_buff *skb)
{
	unsigned long n = words(skb->len & 7);

	return sizeof(int[n][3]) + sizeof(char[n + 1]);
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: *= 12
