// Tests: an int induction variable that starts at 0, steps by 1 and is
// tested against a constant bound cannot be negative, so indexing with it
// needs no sign extension in the loop (clang widens it the same way).
// RUN: socket
// EXPECT: retval=99
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

unsigned char buf[100];

SEC("socket")
int ivs_int_index(struct __sk_buff *skb)
{
	int n = 0;

	for (int i = 0; i < 100; i++)
		buf[i] = i;
	for (int i = 0; i < 100; i++)
		if (buf[i] != 0)
			n++;
	return n;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: ivs_int_index: (section socket,
// CHECK-NOT: s>>= 32
// CHECK: exit
