// Tests: the older SEC("classifier") name for a TC program; it reads
// skb->len (which includes the Ethernet header for TC) and the packet type
// through bpf_skb_load_bytes, and returns TC_ACT_OK for IPv4.
// RUN: tc
// PACKET: ipv4-udp payload=2
// EXPECT: retval=TC_ACT_OK
// PACKET: eth
// EXPECT: retval=TC_ACT_SHOT
#include <linux/types.h>
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

SEC("classifier")
int tc_legacy_section(struct __sk_buff *skb)
{
	__be16 proto;

	if (bpf_skb_load_bytes(skb, 12, &proto, sizeof(proto)))
		return TC_ACT_SHOT;
	if (proto != bpf_htons(ETH_P_IP))
		return TC_ACT_SHOT;
	if (skb->len != ETH_HLEN + 20 + 8 + 2)
		return TC_ACT_SHOT;
	return TC_ACT_OK;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: tc_legacy_section: (section classifier,
// CHECK: r3 += -2
// CHECK-NEXT: ; bpf_skb_load_bytes
// CHECK-NEXT: r1 = r[[SKB:[0-9]]]
// CHECK-NEXT: r2 = 12
// CHECK-NEXT: r4 = 2
// CHECK-NEXT: call 26
// CHECK-NEXT: if r0 != 0 goto
// CHECK-NEXT: r[[T:[0-9]]] = *(u16 *)(r10 - 2)
// CHECK-NEXT: if w[[T]] != 8 goto
// CHECK-NEXT: r[[T:[0-9]]] = *(u32 *)(r[[SKB]] + 0)
// CHECK-NEXT: if w[[T]] == 44 goto
