// memcpy without a definition is clang's builtin, expanded inline: its size
// must be a constant.
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

void *memcpy(void *dst, const void *src, unsigned long n);

SEC("socket")
int f(struct __sk_buff *skb)
{
	char a[16], b[16] = {};

	memcpy(a, b, skb->len & 15);
	return a[0];
}
// ERROR: 13:15: memcpy needs a size known at compile time in BPF

char LICENSE[] SEC("license") = "GPL";
