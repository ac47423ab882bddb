// Rejected: a stack frame over BPF's 512 bytes; the message names the
// function and the size.
// ERROR: 9: big_stack
// ERROR: 9: 512
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("socket")
int big_stack(struct __sk_buff *skb)
{
	volatile char buf[520];

	buf[0] = skb->len;
	buf[519] = buf[0];
	return buf[519];
}

char LICENSE[] SEC("license") = "GPL";
