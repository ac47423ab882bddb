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
	__uint(type, BPF_MAP_TYPE_ARRAY);
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

// The bounds checks the verifier needs: Ethernet, IPv4, the variable
// header length, TCP and UDP, each against data_end.
// CHECK: xdp_parse_counts: (section xdp,
// CHECK-NEXT: r[[D:[0-9]]] = *(u32 *)(r1 + 0)
// CHECK-NEXT: r[[E:[0-9]]] = *(u32 *)(r1 + 4)
// CHECK-NEXT: r[[IP:[0-9]]] = r[[D]]
// CHECK-NEXT: r[[IP]] += 14
// CHECK-NEXT: if r[[IP]] <= r[[E]] goto
// CHECK: r[[P:[0-9]]] = r[[IP]]{{$}}
// CHECK-NEXT: r[[P]] += 20
// CHECK-NEXT: if r[[P]] > r[[E]] goto
// CHECK-NEXT: r[[H:[0-9]]] = *(u8 *)(r[[D]] + 14)
// CHECK-NEXT: r[[H]] <<= 60
// CHECK-NEXT: r[[H]] >>= 60
// CHECK-NEXT: w[[H]] <<= 2
// CHECK-NEXT: if w[[H]] < 20 goto
// The pointer the header-length check tested is the one the TCP and UDP
// reads use (not `ip + hl` computed again, unknown to the verifier).
// CHECK-NEXT: r[[IP]] += r[[H]]
// CHECK-NEXT: if r[[IP]] > r[[E]] goto
// CHECK-NEXT: r[[PR:[0-9]]] = *(u8 *)(r[[D]] + 23)
// CHECK-NEXT: *(u32 *)(r10 - 4) = r[[PR]]
// CHECK-NEXT: r1 = map[proto_counts] ll
// CHECK: r[[PR:[0-9]]] = *(u8 *)(r[[D]] + 23)
// CHECK-NEXT: if w[[PR]] != 6 goto
// CHECK-NEXT: r[[T:[0-9]]] = r[[IP]]
// CHECK-NEXT: r[[T]] += 20
// CHECK-NEXT: if r[[T]] > r[[E]] goto
// CHECK-NEXT: r[[PT:[0-9]]] = *(u16 *)(r[[IP]] + 2)
// CHECK-NEXT: r[[PT]] = be16 r[[PT]]
// CHECK-NEXT: *(u16 *)(r10 - 4) = r[[PT]]
// CHECK-NEXT: *(u64 *)(r10 - 16) = 1
// CHECK-NEXT: r1 = map[port_counts] ll
// CHECK: r[[PT:[0-9]]] = *(u16 *)(r[[IP]] + 2)
// CHECK-NEXT: if w[[PT]] {{[!=]}}= 5888 goto
// CHECK: if w{{[0-9]}} != 17 goto
// CHECK-NEXT: r[[T:[0-9]]] = r[[IP]]
// CHECK-NEXT: r[[T]] += 8
// CHECK-NEXT: if r[[T]] > r[[E]] goto
// CHECK-NEXT: r[[L:[0-9]]] = *(u16 *)(r[[IP]] + 4)
// CHECK-NEXT: r[[L]] = be16 r[[L]]
// CHECK-NEXT: if w[[L]] != 12 goto
// CHECK: r1 = map[port_counts] ll
// CHECK: r4 = 1
// CHECK-NEXT: call 2
