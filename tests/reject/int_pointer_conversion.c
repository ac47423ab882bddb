// Rejected: an integer converted to a pointer, or a pointer to an
// integer, without a cast, in an initialisation or a return, as clang 16
// and later refuse it (-Wint-conversion): the value is rarely what was
// meant (netdata's headers of another version). A null pointer constant,
// and a pointer converted to _Bool, need no cast. (Assignments and
// arguments are not checked: libbpf's macros make such conversions under a
// pragma that turns clang's diagnostic off.)
// CLANG: error
// ERROR: 23:13: incompatible integer to pointer conversion initializing pointer to __u64 with an expression of type long
// ERROR: 16:9: incompatible pointer to integer conversion returning pointer to __u64 from a function with result type int
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

static __always_inline int as_int(__u64 *p)
{
	return p;
}

SEC("xdp")
int prog(struct xdp_md *ctx)
{
	long addr = ctx->data;
	__u64 *q = addr, *z = 0;
	_Bool some = q;
	q = addr;
	return as_int(q) + some + (z == 0);
}

char LICENSE[] SEC("license") = "GPL";
