// Tests: a program array filled by its initialiser (.values = {[i] = &prog}),
// as libbpf and cilium/ebpf populate it at load; the tail call then jumps to
// the program at the packet-length-derived index and never returns.
// RUN: xdp prog=entry
// PACKET: ipv4-tcp
// EXPECT: retval=XDP_TX
// EXPECT-VAR: hits=hex:00000000010000000000000001000000
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

__u32 hits[4];

SEC("xdp")
int t0(struct xdp_md *ctx) { hits[0]++; return XDP_DROP; }
SEC("xdp")
int t1(struct xdp_md *ctx) { hits[1]++; return XDP_TX; }

struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 4);
	__uint(key_size, sizeof(__u32));
	__array(values, int (void *));
} jt SEC(".maps") = {
	.values = { [0] = (void *)&t0, [2] = (void *)&t1 },
};

SEC("xdp")
int entry(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	__u32 idx = (end - data) & 3;

	hits[3]++;
	bpf_tail_call(ctx, &jt, idx);
	hits[2]++;
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: t0: (section xdp,
// CHECK: t1: (section xdp,
// CHECK: entry: (section xdp,
// CHECK: r2 = map[jt] ll
// CHECK-NEXT: ; bpf_tail_call
// CHECK: call 12
