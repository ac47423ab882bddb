// Tests: pre- and post-increment and decrement on int, narrow unsigned
// (wrapping), 64-bit, pointers (scaled by the pointee size) and struct
// fields.
// RUN: socket
// EXPECT: retval=0
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define CHECK(n, cond) do { if (!(cond)) return n; } while (0)

struct ctr { __u16 n; __u64 total; };

SEC("socket")
int incdec(struct __sk_buff *skb)
{
	volatile int start = 5;
	int i = start, r;
	__u8 b = 255;
	__s64 q = 0;
	__u32 arr[3] = { 7, 8, 9 };
	__u32 *p = arr;
	struct ctr c = { .n = 65535, .total = 0 };

	r = i++; CHECK(1, r == 5 && i == 6);
	r = ++i; CHECK(2, r == 7 && i == 7);
	r = i--; CHECK(3, r == 7 && i == 6);
	r = --i; CHECK(4, r == 5 && i == 5);
	b++;     CHECK(5, b == 0);
	b--;     CHECK(6, b == 255);
	q--;     CHECK(7, q == -1);
	CHECK(8, *p++ == 7 && *p == 8);
	CHECK(9, *++p == 9);
	p--;     CHECK(10, *p == 8 && p - arr == 1);
	c.n++;   CHECK(11, c.n == 0);
	++c.total; CHECK(12, c.total == 1);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: *(u32 *)(r10 - 4) = r{{[0-9]}}
// CHECK: r[[V:[0-9]]] = *(u32 *)(r10 - 4)
// CHECK-NEXT: if w[[V]] == 5 goto
// CHECK-NOT: r0 = {{[2-9]}}
// CHECK: r0 = 0
