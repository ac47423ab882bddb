// Rejected: a call to a static function declared but never defined, which
// no other object can define (an extern one is the static linker's:
// bpftool gen object resolves it).
// ERROR: 13:9: ext_fn
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

static int ext_fn(int v);

SEC("socket")
int extern_func(struct __sk_buff *skb)
{
	return ext_fn(skb->len);
}

char LICENSE[] SEC("license") = "GPL";
