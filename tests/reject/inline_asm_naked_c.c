// Rejected: a naked function has no frame for C code; only asm statements
// may be in it.
// ERROR: 11: naked function "f" may contain only asm statements
// CLANG: error
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("socket")
__attribute__((naked)) int f(struct __sk_buff *skb)
{
	int x = skb->len;

	asm volatile("r0 = 0; exit");
}

char LICENSE[] SEC("license") = "GPL";
