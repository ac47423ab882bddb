// Tests: a 4-byte argument is passed zero-extended, as clang passes it: a
// __u32 truncated from a 64-bit value with upper bits set, clamped and
// passed to a helper as a size, kept those bits in the register, and the
// verifier checks the size in 64 bits (inspektor-gadget's gotls:
// "R2 min value is negative").
// RUN: socket
// PACKET: ipv4-udp
// EXPECT: retval=0
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("socket")
int helper_arg_u32(struct __sk_buff *skb)
{
	__u64 wide = skb->len | 0xf00000000ULL;
	__u32 len = wide;
	char buf[16];

	if (len == 0)
		return 1;
	if (len > sizeof(buf))
		len = sizeof(buf);
	if (bpf_skb_load_bytes(skb, 0, buf, len))
		return 2;
	return len == sizeof(buf) ? 0 : 3;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: w{{[0-9]}} = w{{[0-9]}}
// CHECK: call 26
