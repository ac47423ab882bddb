// Rejected: a function that calls itself.
// ERROR: 10:13: recursion
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

static __attribute__((noinline)) int fact(int n)
{
	if (n <= 1)
		return 1;
	return n * fact(n - 1);
}

SEC("socket")
int recursion_direct(struct __sk_buff *skb)
{
	return fact(skb->len & 7);
}

char LICENSE[] SEC("license") = "GPL";
