// mutation: swap adjacent tokens "(" and "type"
// problem: internal error: internal compiler error: the object bpfcc wrote does not parse: load BTF maps: map proto_counts: unrecognized field __uinttype in BTF map definition
// Tests: an XDP parser over Ethernet, IPv4, TCP and UDP with the bounds
// checks the verifier requires; it counts packets per IP protocol into an
// array map and per TCP destination port into a hash map, drops malformed
// packets and TCP to port 23, and passes the rest.
// RUN: xdp
// PACKET: ipv4-tcp dport=80
// EXPECT: retval=XDP_PASS packet=unchanged
// EXPECT-MAP: proto_counts key=6 value=1
// EXPECT-MAP: port_counts key=80 value=1
// PACKET: ipv4-tcp dport=80 repeat=2
// EXPECT: retval=XDP_PASS
// EXPECT-MAP: port_counts key=80 value=3
// PACKET: ipv4-tcp dport=23
// EXPECT: retval=XDP_DROP
// EXPECT-MAP: proto_counts key=6 value=4
// EXPECT-MAP: port_counts key=23 value=1
// PACKET: ipv4-udp dport=53 payload=4
// EXPECT: retval=XDP_PASS
// EXPECT-MAP: proto_counts key=17 value=1
// PACKET: ipv4-icmp
// EXPECT: retval=XDP_PASS
// EXPECT-MAP: proto_counts key=1 value=1
// PACKET: ipv4-tcp len=40
// EXPECT: retval=XDP_DROP
// EXPECT-MAP: proto_counts key=6 value=5
// PACKET: ipv4-tcp ihl=6
// EXPECT: retval=XDP_PASS
// EXPECT-MAP: proto_counts key=6 value=6
// EXPECT-MAP: port_counts key=80 value=4
// PACKET: eth
// EXPECT: retval=XDP_PASS
// EXPECT-MAP: proto_counts key=0 value=1
// PACKET: ipv4-tcp len=20
// EXPECT: retval=XDP_DROP
// EXPECT-MAP: proto_counts key=255 value=1
// PACKET: ipv4-udp
// EXPECT: retval=XDP_ABORTED
// EXPECT-MAP: proto_counts key=17 value=2
// EXPECT-MAP: port_counts key=53 value=absent
#include <linux/types.h>
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/tcp.h>
#include <linux/udp.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

/* IPPROTO_* live in <linux/in.h>, outside the headers this corpus uses. */
#define IPPROTO_ICMP 1
#define IPPROTO_TCP 6
#define IPPROTO_UDP 17

#define MALFORMED 255

struct {
	__uinttype(, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 256);
	__type(key, __u32);
	__type(value, __u64);
} proto_counts SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u16);
	__type(value, __u64);
} port_counts SEC(".maps");

static __always_inline void count_proto(__u32 proto)
{
	__u64 *v = bpf_map_lookup_elem(&proto_counts, &proto);

	if (v)
		__sync_fetch_and_add(v, 1);
}

static __always_inline void count_port(__u16 port)
{
	__u64 one = 1, *v = bpf_map_lookup_elem(&port_counts, &port);

	if (v)
		__sync_fetch_and_add(v, 1);
	else
		bpf_map_update_elem(&port_counts, &port, &one, BPF_NOEXIST);
}

SEC("xdp")
int xdp_parse_counts(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	struct iphdr *ip;
	__u32 hlen;

	if ((void *)(eth + 1) > data_end) {
		count_proto(MALFORMED);
		return XDP_DROP;
	}
	if (eth->h_proto != bpf_htons(ETH_P_IP)) {
		count_proto(0);
		return XDP_PASS;
	}
	ip = (void *)(eth + 1);
	if ((void *)(ip + 1) > data_end) {
		count_proto(MALFORMED);
		return XDP_DROP;
	}
	hlen = ip->ihl * 4;
	if (hlen < sizeof(*ip) || (void *)ip + hlen > data_end) {
		count_proto(MALFORMED);
		return XDP_DROP;
	}
	count_proto(ip->protocol);
	if (ip->protocol == IPPROTO_TCP) {
		struct tcphdr *tcp = (void *)ip + hlen;

		if ((void *)(tcp + 1) > data_end)
			return XDP_DROP;
		count_port(bpf_ntohs(tcp->dest));
		if (tcp->dest == bpf_htons(23))
			return XDP_DROP;
	} else if (ip->protocol == IPPROTO_UDP) {
		struct udphdr *udp = (void *)ip + hlen;

		if ((void *)(udp + 1) > data_end)
			return XDP_DROP;
		if (bpf_ntohs(udp->len) != sizeof(*udp) + 4)
			return XDP_ABORTED;
	}
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
