// Tests: decrementing the IPv4 TTL with an incremental checksum update
// (RFC 1624) in XDP; TTL 1 is dropped. The default packet has TTL 64 and
// checksum 0x549a (10.0.0.1 -> 10.0.0.2, id 0x1234, TCP); after the
// decrement they are 63 and 0x559a.
// RUN: xdp
// PACKET: ipv4-tcp
// EXPECT: retval=XDP_PASS
// EXPECT-PACKET: 22 3f06
// EXPECT-PACKET: 24 559a
// PACKET: ipv4-tcp ttl=1
// EXPECT: retval=XDP_DROP packet=unchanged
#include <linux/types.h>
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

static __always_inline void ip_decrease_ttl(struct iphdr *ip)
{
	__u32 check = ip->check;

	check += bpf_htons(0x0100);
	ip->check = (__u16)(check + (check >= 0xFFFF));
	ip->ttl--;
}

SEC("xdp")
int xdp_ttl(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	struct iphdr *ip = (void *)(eth + 1);

	if ((void *)(ip + 1) > data_end || eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	if (ip->ttl <= 1)
		return XDP_DROP;
	ip_decrease_ttl(ip);
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: xdp_ttl: (section xdp,
// CHECK-NEXT: r[[D:[0-9]]] = *(u32 *)(r1 + 0)
// CHECK-NEXT: r[[E:[0-9]]] = *(u32 *)(r1 + 4)
// CHECK: if r{{[0-9]}} > r[[E]] goto
// CHECK: r[[T:[0-9]]] = *(u8 *)(r[[D]] + 22)
// CHECK-NEXT: if w[[T]] <= 1 goto {{[+][0-9]+}} <[[DROP:[0-9]+]]>
// CHECK-NEXT: r[[C:[0-9]]] = *(u16 *)(r[[D]] + 24)
// CHECK-NEXT: w[[C]] += 1
// CHECK-NEXT: if w[[C]] < 65535 goto {{[+][0-9]+}} <[[NOCARRY:[0-9]+]]>
// CHECK-NEXT: r[[K:[0-9]]] = 1
// CHECK-NEXT: [[ADD:[0-9]+]]: w[[C]] += w[[K]]
// CHECK-NEXT: *(u16 *)(r[[D]] + 24) = r[[C]]
// CHECK-NEXT: w[[T]] -= 1
// CHECK-NEXT: *(u8 *)(r[[D]] + 22) = r[[T]]
// CHECK-NEXT: r0 = 2
// CHECK-NEXT: exit
// CHECK-NEXT: [[NOCARRY]]: r[[K]] = 0
// CHECK-NEXT: goto -{{[0-9]+}} <[[ADD]]>
// CHECK: [[DROP]]: r0 = 1
