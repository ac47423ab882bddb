// Tests: a TC classifier in SEC("tc") using direct packet access through
// __sk_buff data/data_end: UDP is shot, TCP to port 22 is marked and
// accepted, everything else is left to the next classifier.
// RUN: tc
// PACKET: ipv4-udp
// EXPECT: retval=TC_ACT_SHOT
// PACKET: ipv4-tcp dport=22
// EXPECT: retval=TC_ACT_OK
// PACKET: ipv4-tcp dport=443
// EXPECT: retval=TC_ACT_UNSPEC
// PACKET: ipv6-tcp
// EXPECT: retval=TC_ACT_UNSPEC
#include <linux/types.h>
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/tcp.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

/* IPPROTO_* live in <linux/in.h>, outside the headers this corpus uses. */
#define IPPROTO_ICMP 1
#define IPPROTO_TCP 6
#define IPPROTO_UDP 17

SEC("tc")
int tc_classifier(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data;
	void *data_end = (void *)(long)skb->data_end;
	struct ethhdr *eth = data;
	struct iphdr *ip = (void *)(eth + 1);
	struct tcphdr *tcp;

	if ((void *)(ip + 1) > data_end)
		return TC_ACT_UNSPEC;
	if (skb->protocol != bpf_htons(ETH_P_IP))
		return TC_ACT_UNSPEC;
	if (ip->protocol == IPPROTO_UDP)
		return TC_ACT_SHOT;
	if (ip->protocol != IPPROTO_TCP || ip->ihl != 5)
		return TC_ACT_UNSPEC;
	tcp = (void *)(ip + 1);
	if ((void *)(tcp + 1) > data_end)
		return TC_ACT_UNSPEC;
	if (tcp->dest == bpf_htons(22)) {
		skb->mark = 0x22;
		return TC_ACT_OK;
	}
	return TC_ACT_UNSPEC;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: tc_classifier: (section tc,
// CHECK-NEXT: r[[D:[0-9]]] = *(u32 *)(r1 + 76)
// CHECK-NEXT: r[[E:[0-9]]] = *(u32 *)(r1 + 80)
// CHECK-NEXT: r[[P:[0-9]]] = r[[D]]
// CHECK-NEXT: r[[P]] += 14
// CHECK-NEXT: r[[P]] += 20
// CHECK-NEXT: if r[[P]] > r[[E]] goto {{[+][0-9]+}} <[[UNSPEC1:[0-9]+]]>
// CHECK-NEXT: r[[T:[0-9]]] = *(u32 *)(r1 + 16)
// CHECK-NEXT: if w[[T]] != 8 goto
// CHECK-NEXT: r[[T:[0-9]]] = *(u8 *)(r[[D]] + 23)
// CHECK-NEXT: if w[[T]] == 17 goto {{[+][0-9]+}} <[[SHOT:[0-9]+]]>
// CHECK-NEXT: if w[[T]] != 6 goto
// CHECK: r[[P]] += 20
// CHECK-NEXT: if r[[P]] > r[[E]] goto
// CHECK-NEXT: r[[T:[0-9]]] = *(u16 *)(r[[D]] + 36)
// CHECK-NEXT: if w[[T]] != 5632 goto
// CHECK-NEXT: *(u32 *)(r1 + 8) = 34
// CHECK-NEXT: r0 = 0
// CHECK-NEXT: exit
// CHECK-NEXT: [[SHOT]]: r0 = 2
// CHECK-NEXT: exit
// Every TC_ACT_UNSPEC return shares one block.
// CHECK-NEXT: [[UNSPEC1]]: r0 = -1
// CHECK-NEXT: exit
