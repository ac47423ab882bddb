// Rejected: `return;` in a function returning int (clang 16+: "non-void
// function should return a value", an error): the caller would read
// whatever r0 held. kmesh's cgroup_skb_ingress_prog as stored in the index.
// CLANG: error
// ERROR: 15:3: non-void function 'return_without_value' should return a value
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

int flag;

SEC("cgroup_skb/ingress")
int return_without_value(struct __sk_buff *skb)
{
	if (!flag)
		return;
	return 1;
}

char LICENSE[] SEC("license") = "GPL";
