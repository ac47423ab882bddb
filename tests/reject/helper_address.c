// Rejected: taking a helper's address; helpers are call targets only.
// ERROR: 11:27: helper
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

__u64 fn_addr;

SEC("socket")
int helper_address(struct __sk_buff *skb)
{
	fn_addr = (unsigned long)bpf_ktime_get_ns;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
