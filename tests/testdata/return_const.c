// Tests: the smallest program: it returns a constant, so the listing is a
// move of 0 into r0 and exit, with no call and no stack.
// RUN: socket
// EXPECT: retval=0
// ASM: "exit"
// ASM: -"call"
// ASM: -"r10"
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("socket")
int return_const(struct __sk_buff *skb)
{
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// LISTING: whole the listing format itself: the header line (name, section, instruction count, stack), a source line and numbered instructions
