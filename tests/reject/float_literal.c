// Rejected: a floating-point constant in an integer expression.
// ERROR: 9: floating point
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("socket")
int float_literal(struct __sk_buff *skb)
{
	int n = skb->len * 1.5;

	return n;
}

char LICENSE[] SEC("license") = "GPL";
