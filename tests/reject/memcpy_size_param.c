// Rejected: a __builtin_memcpy whose size stays a variable after inlining
// and whose copy optimisation cannot remove.
// ERROR: 10:30: __builtin_memcpy needs a size known at compile time
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

static __attribute__((always_inline)) void copy(void *dst, const void *src, int size)
{
	if (size > 0)
		__builtin_memcpy(dst, src, size);
}

SEC("socket")
int memcpy_size_param(struct __sk_buff *skb)
{
	char a[16] = "0123456789abcde", b[16];

	copy(b, a, skb->len & 15);
	return b[0];
}

char LICENSE[] SEC("license") = "GPL";
