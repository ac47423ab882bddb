// Tests: a memmove whose destination is its source moved by a constant
// (`memmove(data + 4, data, 12)`, as VLAN tag removal writes it) copies
// chunk by chunk from the far end: one register, no spills, and the
// bytes moved are the bytes the packet had (each load before the store
// that overwrites it).
// RUN: xdp prog=memmove_shift
// PACKET: ipv4-tcp
// EXPECT: retval=XDP_TX
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

__u64 sum;

SEC("xdp")
int memmove_shift(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	unsigned char *p = data;
	__u64 s = 0;

	if (data + 16 > data_end)
		return XDP_ABORTED;
	__builtin_memmove(p + 4, p, 12);
	for (int i = 0; i < 16; i++)
		s = s * 31 + p[i];
	sum = s;
	return XDP_TX;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: memmove_shift: (section xdp,
// CHECK: r[[V:[0-9]]] = *(u8 *)(r[[P:[0-9]]] + 11)
// CHECK-NEXT: *(u8 *)(r[[P]] + 15) = r[[V]]
// CHECK-NOT: *(u64 *)(r10
// CHECK: exit
