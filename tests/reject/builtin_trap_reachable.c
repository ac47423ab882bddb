// Rejected: a __builtin_trap() that optimisation does not remove (clang:
// "A call to built-in function 'abort' is not supported"); libbpf's
// __bpf_unreachable() relies on that error.
// ERROR: 11:3: __builtin_trap() is reachable
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

static __attribute__((always_inline)) int checked(int x)
{
	if (x > 5)
		__builtin_trap();
	return x;
}

SEC("socket")
int builtin_trap_reachable(struct __sk_buff *skb)
{
	return checked(skb->len);
}

char LICENSE[] SEC("license") = "GPL";
