// Tests: a flag set to a constant on each way into a test of it is not
// tested at run time: each way jumps to where the test would send it
// (res = a == b as two moves that meet at `if (res)`). The program is the
// loads, two compares and the returns.
// RUN: socket
// EXPECT: retval=2
// CHECK: flag_thread: (section socket, {{1[0-2]}} insns
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("socket")
int flag_thread(struct __sk_buff *skb)
{
	int res = skb->protocol == skb->ifindex + 1;

	if (res)
		return 1;
	return skb->len ? 2 : 3;
}

char LICENSE[] SEC("license") = "GPL";
