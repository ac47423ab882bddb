// Tests: unsigned arithmetic wraps modulo 2^N for every width; converting a
// negative value to an unsigned type wraps too.
// RUN: socket
// EXPECT: retval=0
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define CHECK(n, cond) do { if (!(cond)) return n; } while (0)

SEC("socket")
int unsigned_wrap(struct __sk_buff *skb)
{
	volatile __u8 b = 255;
	volatile __u16 h = 65535;
	volatile __u32 w = 0xffffffffu;
	volatile __u64 q = 0xffffffffffffffffULL;
	volatile int neg = -5;
	__u8 b2;
	__u16 h2;

	b2 = b + 1;
	CHECK(1, b2 == 0);
	h2 = h + 2;
	CHECK(2, h2 == 1);
	CHECK(3, w + 1 == 0);
	CHECK(4, q + 1 == 0);
	CHECK(5, (__u32)(w * w) == 1);
	CHECK(6, (__u32)neg == 0xfffffffbu);
	CHECK(7, (__u8)neg == 251);
	CHECK(8, (__u64)neg == 0xfffffffffffffffbULL);
	CHECK(9, 0u - 1u == 0xffffffffu);
	CHECK(10, (__u32)(w << 4) == 0xfffffff0u);
	b2 = 0;
	b2--;
	CHECK(11, b2 == 255);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: r[[A:[0-9]]] = *(u8 *)(r10 - 1)
// CHECK-NEXT: w[[A]] += 1
// CHECK-NEXT: r[[A]] &= 255
// CHECK-NEXT: if w[[A]] != 0 goto
// CHECK-NEXT: r[[A:[0-9]]] = *(u16 *)(r10 - 4)
// CHECK-NEXT: w[[A]] += 2
// CHECK-NEXT: r[[A]] &= 65535
// CHECK-NEXT: if w[[A]] != 1 goto
// CHECK-NEXT: r[[A:[0-9]]] = *(u32 *)(r10 - 8)
// CHECK-NEXT: w[[A]] += 1
// CHECK-NEXT: if w[[A]] != 0 goto
// CHECK-NEXT: r[[A:[0-9]]] = *(u64 *)(r10 - 16)
// CHECK-NEXT: r[[A]] += 1
// CHECK-NEXT: if r[[A]] != 0 goto
// CHECK-NEXT: r[[A:[0-9]]] = *(u32 *)(r10 - 8)
// CHECK-NEXT: r[[B:[0-9]]] = *(u32 *)(r10 - 8)
// CHECK-NEXT: w[[A]] *= w[[B]]
// CHECK-NEXT: if w[[A]] != 1 goto
// CHECK-NEXT: r[[A:[0-9]]] = *(u32 *)(r10 - 20)
// CHECK-NEXT: if w[[A]] != -5 goto
// CHECK-NEXT: r[[A:[0-9]]] = *(u32 *)(r10 - 20)
// CHECK-NEXT: r[[A]] &= 255
// CHECK-NEXT: if w[[A]] != 251 goto
// CHECK-NEXT: r[[A:[0-9]]] = *(u32 *)(r10 - 20)
// CHECK-NEXT: r[[A]] <<= 32
// CHECK-NEXT: r[[A]] s>>= 32
// CHECK-NEXT: if r[[A]] != -5 goto
// CHECK-NEXT: r[[A:[0-9]]] = *(u32 *)(r10 - 8)
// CHECK-NEXT: w[[A]] <<= 4
// CHECK-NEXT: if w[[A]] == -16 goto
// CHECK-NOT: r0 = 9
// CHECK-NOT: r0 = 11
