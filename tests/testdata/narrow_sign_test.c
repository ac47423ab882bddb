// Tests: a parser that returns a 16-bit protocol number as an int, with a
// negative value for errors, and a caller that tests `< 0` on it after the
// one path that can fail returned early: the test is decided by the
// width (a u16 is never negative) and goes, as clang folds it; left in,
// the verifier must track the protocol precisely there, and states that
// differ in it no longer prune one another.
// RUN: xdp
// PACKET: ipv4-udp
// EXPECT: retval=2
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <bpf/bpf_helpers.h>

static __always_inline int proto_of(void *data, void *end)
{
	struct ethhdr *eth = data;

	if ((void *)(eth + 1) > end)
		return -1;
	return eth->h_proto; /* network order, zero-extended */
}

SEC("xdp")
int narrow_sign_test(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	int proto;

	if (data + sizeof(struct ethhdr) > end)
		return XDP_ABORTED;
	proto = proto_of(data, end);
	if (proto < 0)
		return XDP_ABORTED;
	return proto == 0x0008 ? XDP_PASS : XDP_DROP;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: r{{[0-9]}} = *(u8 *)(r{{[0-9]}} + 13)
// CHECK-NOT: s<
// CHECK-NOT: s>=
// CHECK: exit
