// Tests: the smallest program: it returns a constant, so the listing is a
// move of 0 into r0 and exit (at -mcpu=v3 the 32-bit form).
// RUN: socket
// EXPECT: retval=0
// ASM: "w0 = 0"
// ASM: "exit"
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("socket")
int return_const(struct __sk_buff *skb)
{
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
