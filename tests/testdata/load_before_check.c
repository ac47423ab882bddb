// Tests: a packet read written before the bounds check that guards it
// moves below the check, to the only paths that use it, as clang sinks it
// (loxilb's parser: `int iphl = iph->ihl << 2;` then `if (iph + 1 >
// dend)`): in place, the verifier refuses the read ("invalid access to
// packet"); the paths that leave early no longer compute it.
// RUN: xdp
// PACKET: ipv4-udp dport=53
// EXPECT: retval=17
// PACKET: eth
// EXPECT: retval=1
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <bpf/bpf_helpers.h>

SEC("xdp")
int load_before_check(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *dend = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;

	if ((void *)(eth + 1) > dend)
		return 0;

	struct iphdr *iph = (void *)(eth + 1);
	int ihl = iph->ihl << 2; /* read before the check */

	if ((void *)(iph + 1) > dend)
		return 1;
	if ((void *)iph + ihl > dend)
		return 2;
	return iph->protocol;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: load_before_check: (section xdp,
// CHECK: if r{{[0-9]}} > r{{[0-9]}} goto
// CHECK: if r{{[0-9]}} > r{{[0-9]}} goto
// CHECK-NEXT: r{{[0-9]}} = *(u8 *)(r{{[0-9]}} + 14)
