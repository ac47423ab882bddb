// Rejected: a user-defined variadic function.
// ERROR: 6: variadic
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

static __attribute__((noinline)) int sum_all(int n, ...)
{
	return n;
}

SEC("socket")
int variadic_user(struct __sk_buff *skb)
{
	return sum_all(2, 1, 2);
}

char LICENSE[] SEC("license") = "GPL";
