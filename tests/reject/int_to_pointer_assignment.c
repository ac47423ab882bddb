// Rejected: an integer assigned to a pointer without a cast (clang 16+:
// "incompatible integer to pointer conversion assigning to", an error):
// kyanos's `skb = PT_REGS_PARM1_CORE(ctx)` outside libbpf's macros.
// CLANG: error
// ERROR: 16:8: incompatible integer to pointer conversion assigning to pointer to struct sk_buff from unsigned long
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct sk_buff;

SEC("socket")
int int_to_pointer_assignment(struct __sk_buff *ctx)
{
	struct sk_buff *skb;

	skb = (unsigned long)ctx->cb[0];
	return skb != 0;
}

char LICENSE[] SEC("license") = "GPL";
