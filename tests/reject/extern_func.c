// Rejected: a call to an external function that is neither defined here
// nor a BPF helper (nothing could link it).
// ERROR: 12:9: ext_fn
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

extern int ext_fn(int v);

SEC("socket")
int extern_func(struct __sk_buff *skb)
{
	return ext_fn(skb->len);
}

char LICENSE[] SEC("license") = "GPL";
