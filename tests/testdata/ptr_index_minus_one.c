// Tests: `p + (n - 1)` with n a small int (a header length read from the
// packet) is p + n with -1 in the accesses' offsets, as clang computes it:
// the 32-bit n - 1 cannot wrap, so its sign extension is n - 1 in 64 bits,
// and the constant splits off the pointer, also where `+ 1` is added to it
// for the bounds check. bpfcc added n - 1, whose minimum is -1, to the
// packet pointer: "min value is negative" (loxilb's GTP extension walk).
// RUN: xdp
// PACKET: ipv4-udp dport=53
// EXPECT: retval=2
// PACKET: eth
// EXPECT: retval=0
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("xdp")
int ptr_index_minus_one(struct xdp_md *ctx)
{
	unsigned char *nhl = (void *)(long)ctx->data + 14;
	void *dend = (void *)(long)ctx->data_end;
	unsigned char *neh;
	int elen;

	if (nhl + 1 > (unsigned char *)dend)
		return 0;
	elen = (*nhl & 0xf) << 2;
	neh = nhl + (elen - 1); /* the IPv4 header's last byte */
	if (neh + 1 > (unsigned char *)dend)
		return 1;
	return *neh;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: ptr_index_minus_one: (section xdp,
// CHECK: r{{[0-9]}} = *(u8 *)(r{{[0-9]}} - 1)
