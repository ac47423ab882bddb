// Rejected: a compiler builtin that has no BPF lowering.
// ERROR: 11:22: __builtin_return_address
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

__u64 ra;

SEC("socket")
int unsupported_builtin(struct __sk_buff *skb)
{
	ra = (unsigned long)__builtin_return_address(0);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
