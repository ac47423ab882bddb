// Rejected: a struct argument passed by value to a bpf-to-bpf call; it
// does not fit BPF's calling convention.
// ERROR: 10: by value
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct big { __u64 a, b, c; };

static __attribute__((noinline)) __u64 take(struct big b)
{
	return b.a + b.b + b.c;
}

SEC("socket")
int struct_arg_value(struct __sk_buff *skb)
{
	struct big b = { skb->len, 2, 3 };

	return take(b);
}

char LICENSE[] SEC("license") = "GPL";
