// Tests: socket filter reads skb->len and skb->protocol through __sk_buff.
// RUN: socket
// PACKET: ipv4-tcp payload=10
// EXPECT: retval=0
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

SEC("socket")
int skb_fields(struct __sk_buff *skb)
{
	if (skb->len != 40 + 10)
		return 1;
	if (skb->protocol != bpf_htons(ETH_P_IP))
		return 2;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: skb_fields: (section socket,
// CHECK: = *(u32 *)(r1 + 0)
// CHECK: = *(u32 *)(r1 + 16)
