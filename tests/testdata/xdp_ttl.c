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
