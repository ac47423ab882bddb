// Rejected: mutual recursion through two functions. The error is at the
// call that closes the cycle when calls are followed from the program:
// is_even's call of is_odd, then is_odd's call of is_even.
// ERROR: 17:22: recursion
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

static int is_odd(int n);

static __attribute__((noinline)) int is_even(int n)
{
	return n == 0 ? 1 : is_odd(n - 1);
}

static __attribute__((noinline)) int is_odd(int n)
{
	return n == 0 ? 0 : is_even(n - 1);
}

SEC("socket")
int recursion_mutual(struct __sk_buff *skb)
{
	return is_even(skb->len & 15);
}

char LICENSE[] SEC("license") = "GPL";
