// Tests: a socket filter that keeps TCP packets whole, truncates UDP to 8
// bytes and drops the rest, reading the IPv4 protocol with
// bpf_skb_load_bytes (offsets start at the network header) and checking
// skb->protocol.
// RUN: socket
// PACKET: ipv4-tcp payload=20
// EXPECT: retval=60
// PACKET: ipv4-udp payload=20
// EXPECT: retval=8
// PACKET: ipv4-icmp
// EXPECT: retval=0
// PACKET: ipv6-tcp
// EXPECT: retval=0
#include <linux/types.h>
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

/* IPPROTO_* live in <linux/in.h>, outside the headers this corpus uses. */
#define IPPROTO_ICMP 1
#define IPPROTO_TCP 6
#define IPPROTO_UDP 17

SEC("socket")
int socket_filter(struct __sk_buff *skb)
{
	__u8 proto;

	if (skb->protocol != bpf_htons(ETH_P_IP))
		return 0;
	if (bpf_skb_load_bytes(skb, __builtin_offsetof(struct iphdr, protocol), &proto, 1))
		return 0;
	if (proto == IPPROTO_TCP)
		return skb->len;
	if (proto == IPPROTO_UDP)
		return 8;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: = *(u32 *)(r[[C:[0-9]]] + 16)
// CHECK: ; bpf_skb_load_bytes
// CHECK: call 26
// CHECK: r0 = *(u32 *)(r[[C]] + 0)
