// Rejected: a call to a function that was never declared.
// CLANG: error
// ERROR: 10:9: undeclared_fn
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("socket")
int undeclared_func(struct __sk_buff *skb)
{
	return undeclared_fn(skb->len);
}

char LICENSE[] SEC("license") = "GPL";
