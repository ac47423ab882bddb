// Rejected: a variable-length array; the BPF stack frame has a fixed size.
// ERROR: 10: variable-length array
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("socket")
int vla(struct __sk_buff *skb)
{
	unsigned int n = (skb->len & 31) + 1;
	char buf[n];

	buf[0] = 1;
	return buf[0];
}

char LICENSE[] SEC("license") = "GPL";
