// Tests: pointer arithmetic within stack objects: adding and subtracting
// integers (scaled by element size), differences, comparisons and walking an
// array with a pointer.
// RUN: socket
// EXPECT: retval=0
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define CHECK(n, cond) do { if (!(cond)) return n; } while (0)

SEC("socket")
int pointer_arith(struct __sk_buff *skb)
{
	__u64 q[4] = { 1, 2, 3, 4 };
	__u16 h[6] = { 10, 20, 30, 40, 50, 60 };
	__u64 *p = q, *end = q + 4;
	__u16 *hp = &h[5];
	__u64 sum = 0;

	while (p < end)
		sum += *p++;
	CHECK(1, sum == 10 && p == end);
	CHECK(2, end - q == 4 && (char *)end - (char *)q == 32);
	hp -= 2;
	CHECK(3, *hp == 40 && hp[1] == 50 && hp[-3] == 10);
	CHECK(4, *(h + 2) == 30 && 2[h] == 30);
	CHECK(5, &h[3] > &h[1] && &q[0] <= &q[0]);
	*(q + 1) = 20;
	CHECK(6, q[1] == 20);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: pointer_arith: (section socket, 2 insns, stack 0)
// CHECK-NOT: r0 = {{[1-9]}}
// CHECK: r0 = 0
// CHECK-NEXT: exit
