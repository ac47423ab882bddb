// Rejected: inline assembly bpfcc cannot assemble.
// ERROR: 11: asm
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("socket")
int inline_asm(struct __sk_buff *skb)
{
	int x = skb->len;

	asm volatile("frobnicate %0, 42" : "+r"(x));
	return x;
}

char LICENSE[] SEC("license") = "GPL";
