// Rejected: __builtin_memcpy with a size that is not a compile-time constant.
// ERROR: 11:29: size
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("socket")
int memcpy_nonconst(struct __sk_buff *skb)
{
	char src[16] = "0123456789abcde", dst[16];

	__builtin_memcpy(dst, src, skb->len & 15);
	return dst[0];
}

char LICENSE[] SEC("license") = "GPL";
