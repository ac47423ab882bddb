// Rejected: a call passing more or fewer arguments than the callee's
// prototype has, as clang rejects it ("too many arguments to function
// call, expected 2, have 3"): an extra argument was dropped and a missing
// one left its register unset for the verifier to refuse ("R2 !read_ok");
// netdata's process.bpf.c against an older header. A helper's prototype
// counts the same way.
// CLANG: error
// ERROR: 29:19: too many arguments to function add, expected 2, have 3
// ERROR: 29:24: too few arguments to function sub, expected 2, have 1
// ERROR: 30:29: too many arguments to helper bpf_get_prandom_u32, expected 0, have 1
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

static __always_inline int add(int a, int b)
{
	return a + b;
}

static __attribute__((noinline)) int sub(int a, int b)
{
	return a - b;
}

SEC("xdp")
int prog(struct xdp_md *ctx)
{
	int x = ctx->ingress_ifindex;

	return add(x, 1, 2) + sub(x) +
	       bpf_get_prandom_u32(x);
}

char LICENSE[] SEC("license") = "GPL";
