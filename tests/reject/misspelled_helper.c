// Rejected: a misspelled helper (an implicit declaration in C) is named
// with the nearest helpers the file declares, as clang's "did you mean".
// CLANG: error
// ERROR: 13:12: call to undeclared function "bpf_ktime_get_nss" (did you mean bpf_ktime_get_ns?)
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

__u64 last;

SEC("socket")
int misspelled_helper(struct __sk_buff *skb)
{
	__u64 t = bpf_ktime_get_nss();

	last = t;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
