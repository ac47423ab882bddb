// Rejected: a program array initialised with a function that is not a
// program (no SEC): libbpf would fail at open with no source position.
// ERROR: 21:39: "sub" is not a program
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("xdp")
int t0(struct xdp_md *ctx) { return XDP_DROP; }

static __attribute__((noinline)) int sub(void *ctx)
{
	return XDP_PASS;
}

struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 4);
	__uint(key_size, sizeof(__u32));
	__array(values, int (void *));
} jt SEC(".maps") = {
	.values = { [0] = (void *)&t0, [2] = (void *)&sub },
};

SEC("xdp")
int entry(struct xdp_md *ctx)
{
	bpf_tail_call(ctx, &jt, 0);
	return sub(ctx);
}

char LICENSE[] SEC("license") = "GPL";
