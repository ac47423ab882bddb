// Tests: a global function of a few dozen instructions is inlined at its
// calls, as clang's -O2 inliner does, so the verifier checks it in its
// caller's context: verified alone, its pointer argument would be
// "mem_or_null" and bpf_skb_load_bytes into it refused. The function
// stays in the object as well.
// RUN: socket
// PACKET: ipv4-tcp
// EXPECT: retval=0
#include <linux/types.h>
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/tcp.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

__u16 want_port = 0;
int seen = 0;

int tcp_header(struct __sk_buff *skb, struct tcphdr *tcph)
{
	struct iphdr iph;

	if (skb->protocol != bpf_htons(ETH_P_IP))
		return 0;
	if (bpf_skb_load_bytes(skb, 0, &iph, sizeof(iph)))
		return 0;
	if (iph.protocol != IPPROTO_TCP || iph.ihl != 5)
		return 0;
	if (bpf_skb_load_bytes(skb, sizeof(iph), tcph, sizeof(*tcph)))
		return 0;
	if (want_port && tcph->source != bpf_htons(want_port) &&
	    tcph->dest != bpf_htons(want_port))
		return 0;
	return 1;
}

SEC("socket")
int global_inline_medium(struct __sk_buff *skb)
{
	struct tcphdr tcph;

	if (!tcp_header(skb, &tcph))
		return 1;
	seen++;
	if (tcph.doff < 5)
		return 2;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: tcp_header: (section .text,
// CHECK: global_inline_medium: (section socket,
// CHECK-NOT: call tcp_header
// CHECK: ; bpf_skb_load_bytes
// CHECK: call 26
// CHECK: call 26
