// Tests: int addition, subtraction, multiplication and unsigned wrap on
// values the compiler cannot fold (volatile locals).
// RUN: socket
// EXPECT: retval=0
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define CHECK(n, cond) do { if (!(cond)) return n; } while (0)

SEC("socket")
int int_arith(struct __sk_buff *skb)
{
	volatile int a = 7, b = -3;
	volatile unsigned int u = 0xfffffffeu;

	CHECK(1, a + b == 4);
	CHECK(2, a - b == 10);
	CHECK(3, a * b == -21);
	CHECK(4, u + 3 == 1);
	CHECK(5, (unsigned int)(u * 2) == 0xfffffffcu);
	CHECK(6, -a == -7);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: r[[A:[0-9]]] = *(u32 *)(r10 - 4)
// CHECK-NEXT: r[[B:[0-9]]] = *(u32 *)(r10 - 8)
// CHECK-NEXT: w[[A]] += w[[B]]
// CHECK-NEXT: if w[[A]] != 4 goto
// CHECK-NEXT: r[[A:[0-9]]] = *(u32 *)(r10 - 4)
// CHECK-NEXT: r[[B:[0-9]]] = *(u32 *)(r10 - 8)
// CHECK-NEXT: w[[A]] -= w[[B]]
// CHECK-NEXT: if w[[A]] != 10 goto
// CHECK-NEXT: r[[A:[0-9]]] = *(u32 *)(r10 - 4)
// CHECK-NEXT: r[[B:[0-9]]] = *(u32 *)(r10 - 8)
// CHECK-NEXT: w[[A]] *= w[[B]]
// CHECK-NEXT: if w[[A]] != -21 goto
// CHECK-NEXT: r[[U:[0-9]]] = *(u32 *)(r10 - 12)
// CHECK-NEXT: w[[U]] += 3
// CHECK-NEXT: if w[[U]] != 1 goto
// CHECK-NEXT: r[[U:[0-9]]] = *(u32 *)(r10 - 12)
// CHECK-NEXT: w[[U]] <<= 1
// CHECK-NEXT: if w[[U]] != -4 goto
// CHECK-NEXT: r[[A:[0-9]]] = *(u32 *)(r10 - 4)
// CHECK-NEXT: w[[A]] = -w[[A]]
// CHECK-NEXT: if w[[A]] != -7 goto
