// Tests: as ptr_index_minus_one, where the base is itself a variable
// offset into the packet and the walk is unrolled (loxilb's GTP extension
// loop: nhl = p + 14 + (*p & 0x3c), then neh = nhl + (elen - 1) in each
// copy): the sum's own definition becomes n + C, so the bounds check of a
// copy of it and the access through n share one pointer; and n - 1 in
// registers assigned in each copy is split as in a single one. bpfcc's
// access through a second sum went unchecked ("outside of the packet"),
// then "min value is negative".
// RUN: xdp
// PACKET: ipv4-udp dport=53
// EXPECT: retval=2
// PACKET: eth
// EXPECT: retval=2
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("xdp")
int ptr_var_base_minus_one(struct xdp_md *ctx)
{
	unsigned char *p = (void *)(long)ctx->data;
	void *dend = (void *)(long)ctx->data_end;
	unsigned char *nhl, *neh;
	int elen, depth, hlen = 0;

	if (p + 1 > (unsigned char *)dend)
		return XDP_PASS;
	nhl = p + 14 + (*p & 0x3c);
#pragma unroll
	for (depth = 0; depth < 2; depth++) {
		if (nhl + 1 > (unsigned char *)dend)
			return XDP_PASS;
		elen = *nhl << 2;
		neh = nhl + (elen - 1);
		if (neh + 1 > (unsigned char *)dend)
			return XDP_PASS;
		hlen += elen;
		if (*neh == 0)
			break;
		nhl = nhl + elen;
	}
	return hlen & 3;
}

char LICENSE[] SEC("license") = "GPL";

// The first copy's check and access go through one sum.
// CHECK: r[[N:[0-9]]] += r{{[0-9]}}
// CHECK-NEXT: r[[C:[0-9]]] = r[[N]]
// CHECK-NEXT: r[[C]] += 15
// CHECK-NEXT: if r[[C]] > r{{[0-9]}} goto
// CHECK: r{{[0-9]}} = *(u8 *)(r[[N]] + 14)
