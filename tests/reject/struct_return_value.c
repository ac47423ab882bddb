// Rejected: a bpf-to-bpf function returning a struct by value; BPF
// returns one register.
// ERROR: 10: by value
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct big { __u64 a, b, c; };

static __attribute__((noinline)) struct big make(__u64 v)
{
	struct big b = { v, v, v };
	return b;
}

SEC("socket")
int struct_return_value(struct __sk_buff *skb)
{
	struct big b = make(skb->len);

	return b.c;
}

char LICENSE[] SEC("license") = "GPL";
