// Tests: a global (non-static) function that returns a pointer is inlined
// at its calls whatever its size, as clang's inlining at a constant
// argument hides it: the verifier refuses a call to a global function that
// does not return a scalar (ecapture's go_get_argument_by_reg). The
// function stays in the object for other objects to call.
// RUN: socket
// PACKET: ipv4-udp
// EXPECT: retval=0
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

__u64 vals[8] = { 10, 20, 30, 40, 50, 60, 70, 80 };

#define CASE(n) case n: vals[(n) % 8] += n; return &vals[(n) % 8];

__u64 *pick(int index)
{
	switch (index) {
	CASE(1) CASE(2) CASE(3) CASE(4) CASE(5) CASE(6) CASE(7) CASE(8)
	CASE(9) CASE(10) CASE(11) CASE(12) CASE(13) CASE(14) CASE(15) CASE(16)
	default: return 0;
	}
}

SEC("socket")
int global_ptr_return(struct __sk_buff *skb)
{
	__u64 *p = pick(3);

	if (!p || *p != 43)
		return 1;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: global_ptr_return:
// CHECK-NOT: call pick
// CHECK: exit
