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
