// Rejected: a function returning a struct by value with five parameters:
// the result's address takes one of BPF's five argument registers.
// ERROR: 10: by value
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct big { __u64 a, b, c; };

static __attribute__((noinline)) struct big make(__u64 a, __u64 b, __u64 c, __u64 d, __u64 e)
{
	struct big r = { a + b, c + d, e };
	return r;
}

SEC("socket")
int struct_return_value(struct __sk_buff *skb)
{
	struct big b = make(skb->len, 1, 2, 3, 4);

	return b.c;
}

char LICENSE[] SEC("license") = "GPL";
