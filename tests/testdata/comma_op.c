// Tests: the comma operator evaluates left to right and yields its right
// operand; commas in for headers.
// RUN: socket
// EXPECT: retval=0
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define CHECK(n, cond) do { if (!(cond)) return n; } while (0)

SEC("socket")
int comma_op(struct __sk_buff *skb)
{
	volatile int v = 3;
	int a = 0, b = 0, r, i, j;

	r = (a = v, b = a * 2, a + b);
	CHECK(1, a == 3 && b == 6 && r == 9);
	r = (a++, a++, a);
	CHECK(2, r == 5);
	for (i = 0, j = 10; i < j; i++, j--)
		;
	CHECK(3, i == 5 && j == 5);
	CHECK(4, (v, 42) == 42);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: *(u32 *)(r10 - 4) = r{{[0-9]}}
// CHECK: r[[V:[0-9]]] = *(u32 *)(r10 - 4)
// CHECK-NEXT: if w[[V]] == 3 goto
// CHECK-NOT: r0 = {{[2-9]}}
// CHECK: r0 = 0
