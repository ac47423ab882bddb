// Rejected: floating-point types; BPF has no floating point.
// ERROR: 9: floating point
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("socket")
int float_type(struct __sk_buff *skb)
{
	double scale = skb->len;

	return scale > 10;
}

char LICENSE[] SEC("license") = "GPL";
