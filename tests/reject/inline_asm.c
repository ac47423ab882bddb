// Rejected: asm text that is not a BPF instruction; the error names the
// asm line and the bad token.
// ERROR: 12: inline asm line 2: unknown instruction at "frobnicate"
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("socket")
int inline_asm(struct __sk_buff *skb)
{
	int x = skb->len;

	asm volatile("%0 += 1\n"
		     "frobnicate %0, 42" : "+r"(x));
	return x;
}

char LICENSE[] SEC("license") = "GPL";
