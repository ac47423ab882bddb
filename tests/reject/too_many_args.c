// Rejected: a bpf-to-bpf call with more than five arguments (R1-R5).
// ERROR: 6: arguments
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

static __attribute__((noinline)) int six(int a, int b, int c, int d, int e, int f)
{
	return a + b + c + d + e + f;
}

SEC("socket")
int too_many_args(struct __sk_buff *skb)
{
	return six(skb->len, 1, 2, 3, 4, 5);
}

char LICENSE[] SEC("license") = "GPL";
