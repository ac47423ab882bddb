// Tests: XDP rewriting a packet in place: swap the Ethernet and IPv4
// addresses of a UDP packet and bounce it with XDP_TX; other packets pass.
// RUN: xdp
// PACKET: ipv4-udp src=192.168.1.10 dst=192.168.1.20
// EXPECT: retval=XDP_TX len=42
// EXPECT-PACKET: 0 020000000001020000000002
// EXPECT-PACKET: 26 c0a80114c0a8010a
// PACKET: ipv4-tcp
// EXPECT: retval=XDP_PASS packet=unchanged
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

SEC("xdp")
int xdp_tx_swap(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	struct iphdr *ip = data + sizeof(*eth);
	unsigned char mac[ETH_ALEN];
	__be32 addr;

	if ((void *)(ip + 1) > data_end)
		return XDP_PASS;
	if (eth->h_proto != bpf_htons(ETH_P_IP) || ip->protocol != IPPROTO_UDP)
		return XDP_PASS;
	__builtin_memcpy(mac, eth->h_dest, ETH_ALEN);
	__builtin_memcpy(eth->h_dest, eth->h_source, ETH_ALEN);
	__builtin_memcpy(eth->h_source, mac, ETH_ALEN);
	addr = ip->saddr;
	ip->saddr = ip->daddr;
	ip->daddr = addr;
	return XDP_TX;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: xdp_tx_swap: (section xdp,
// CHECK-NEXT: r[[D:[0-9]]] = *(u32 *)(r1 + 0)
// CHECK-NEXT: r[[E:[0-9]]] = *(u32 *)(r1 + 4)
// CHECK: if r{{[0-9]}} > r[[E]] goto
// CHECK: r[[T:[0-9]]] = *(u8 *)(r[[D]] + 23)
// CHECK-NEXT: if w[[T]] != 17 goto
// CHECK-NEXT: r[[M0:[0-9]]] = *(u8 *)(r[[D]] + 0)
// CHECK: r[[M5:[0-9]]] = *(u8 *)(r[[D]] + 5)
// CHECK-NEXT: r[[T:[0-9]]] = *(u8 *)(r[[D]] + 6)
// CHECK-NEXT: *(u8 *)(r[[D]] + 0) = r[[T]]
// CHECK: r[[T:[0-9]]] = *(u8 *)(r[[D]] + 11)
// CHECK-NEXT: *(u8 *)(r[[D]] + 5) = r[[T]]
// A u8 load needs no zero extension before the u8 store.
// CHECK-NEXT: *(u8 *)(r[[D]] + 6) = r[[M0]]
// CHECK: *(u8 *)(r[[D]] + 11) = r[[M5]]
// CHECK-NEXT: r[[S:[0-9]]] = *(u32 *)(r[[D]] + 26)
// CHECK-NEXT: r[[T:[0-9]]] = *(u32 *)(r[[D]] + 30)
// CHECK-NEXT: *(u32 *)(r[[D]] + 26) = r[[T]]
// CHECK-NEXT: *(u32 *)(r[[D]] + 30) = r[[S]]
// CHECK-NEXT: r0 = 3
