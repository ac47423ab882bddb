// Tests: __builtin_constant_p is decided after inlining and folding, as
// clang decides it: a parameter of an always-inline function is a constant
// when every call passes one (libbpf's bpf_tail_call_static relies on it to
// keep its __bpf_unreachable() out of the code), a packet length is not.
// RUN: xdp prog=entry
// PACKET: ipv4-tcp
// EXPECT: retval=XDP_TX
// EXPECT-VAR: checks=hex:01000000000000000100000007000000
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

__u32 checks[4];

static __attribute__((always_inline)) int is_const(__u32 v)
{
	return __builtin_constant_p(v);
}

static __attribute__((always_inline)) __u32 must_be_const(const __u32 v)
{
	if (!__builtin_constant_p(v))
		__builtin_trap();
	return v + 5;
}

SEC("xdp")
int target(struct xdp_md *ctx) { return XDP_TX; }

struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 4);
	__uint(key_size, sizeof(__u32));
	__array(values, int (void *));
} jt SEC(".maps") = {
	.values = { [2] = (void *)&target },
};

SEC("xdp")
int entry(struct xdp_md *ctx)
{
	__u32 len = ctx->data_end - ctx->data;
	__u32 k = 2;

	checks[0] = is_const(2);
	checks[1] = is_const(len);
	checks[2] = is_const(k);
	checks[3] = must_be_const(k);
	bpf_tail_call_static(ctx, &jt, 2);
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: target: (section xdp,
// CHECK: entry: (section xdp,
// CHECK-NOT: call {{[a-z_]}}
// CHECK: r{{[0-9]}} = map[jt] ll
// CHECK: call 12
