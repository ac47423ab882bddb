// Tests: integer promotions and the usual arithmetic conversions: char and
// short operands promote to int, unsigned int meets long, int meets
// unsigned int, and results wider than the operands are not truncated.
// RUN: socket
// EXPECT: retval=0
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define CHECK(n, cond) do { if (!(cond)) return n; } while (0)

SEC("socket")
int int_promotion(struct __sk_buff *skb)
{
	volatile unsigned char uc = 200;
	volatile signed char sc = -100;
	volatile unsigned short us = 65535;
	volatile short ss = -32768;
	volatile unsigned int ui = 4000000000u;
	volatile int si = -1;

	CHECK(1, uc + uc == 400);              /* no 8-bit wrap */
	CHECK(2, sc + sc == -200);
	CHECK(3, us * 2 == 131070);            /* promoted to int */
	CHECK(4, ss - 1 == -32769);
	CHECK(5, sizeof(uc + uc) == 4 && sizeof(us + 0) == 4);
	CHECK(6, (long)ui + 1 == 4000000001L); /* unsigned int -> long */
	CHECK(7, ui + 1L == 4000000001L);      /* long wins: no 32-bit wrap */
	CHECK(8, si + ui == 3999999999u);      /* int -> unsigned int */
	CHECK(9, sizeof(si + ui) == 4);
	CHECK(10, (unsigned char)(uc + 100) == 44);
	CHECK(11, ~uc == -201);                /* ~ on the promoted int */
	CHECK(12, -us == -65535);
	CHECK(13, (sc >> 1) == -50);
	CHECK(14, uc * uc == 40000);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: r[[A:[0-9]]] = *(u8 *)(r10 - 1)
// CHECK-NEXT: r[[B:[0-9]]] = *(u8 *)(r10 - 1)
// CHECK-NEXT: w[[A]] += w[[B]]
// CHECK-NEXT: if w[[A]] != 400 goto
// CHECK-NEXT: r[[A:[0-9]]] = *(u8 *)(r10 - 2)
// CHECK-NEXT: r[[A]] <<= 56
// CHECK-NEXT: r[[A]] s>>= 56
// CHECK: if w{{[0-9]}} != -200 goto
// CHECK-NEXT: r[[A:[0-9]]] = *(u16 *)(r10 - 4)
// CHECK-NEXT: w[[A]] <<= 1
// CHECK-NEXT: if w[[A]] != 131070 goto
// CHECK-NEXT: r[[A:[0-9]]] = *(u16 *)(r10 - 6)
// CHECK-NEXT: r[[A]] <<= 48
// CHECK-NEXT: r[[A]] s>>= 48
// CHECK-NEXT: w[[A]] -= 1
// CHECK-NEXT: if w[[A]] != -32769 goto
// CHECK-NEXT: r[[A:[0-9]]] = *(u32 *)(r10 - 12)
// CHECK-NEXT: r[[A]] += 1
// CHECK-NEXT: w[[C:[0-9]]] = -294967295
// CHECK-NEXT: if r[[A]] != r[[C]] goto
// CHECK-NEXT: r[[A:[0-9]]] = *(u32 *)(r10 - 12)
// CHECK-NEXT: r[[A]] += 1
// CHECK-NEXT: w[[C:[0-9]]] = -294967295
// CHECK-NEXT: if r[[A]] != r[[C]] goto
// CHECK-NEXT: r[[A:[0-9]]] = *(u32 *)(r10 - 16)
// CHECK-NEXT: r[[B:[0-9]]] = *(u32 *)(r10 - 12)
// CHECK-NEXT: w[[A]] += w[[B]]
// CHECK-NEXT: if w[[A]] != -294967297 goto
// CHECK-NEXT: r[[A:[0-9]]] = *(u8 *)(r10 - 1)
// CHECK-NEXT: w[[A]] += 100
// CHECK-NEXT: r[[A]] &= 255
// CHECK-NEXT: if w[[A]] != 44 goto
// CHECK-NEXT: r[[A:[0-9]]] = *(u8 *)(r10 - 1)
// CHECK-NEXT: w[[A]] ^= -1
// CHECK-NEXT: if w[[A]] != -201 goto
// CHECK-NEXT: r[[A:[0-9]]] = *(u16 *)(r10 - 4)
// CHECK-NEXT: w[[A]] = -w[[A]]
// CHECK-NEXT: if w[[A]] != -65535 goto
// CHECK-NEXT: r[[A:[0-9]]] = *(u8 *)(r10 - 2)
// CHECK-NEXT: r[[A]] <<= 56
// CHECK-NEXT: r[[A]] s>>= 56
// CHECK-NEXT: w[[A]] s>>= 1
// CHECK-NEXT: if w[[A]] != -50 goto
// CHECK-NEXT: r[[A:[0-9]]] = *(u8 *)(r10 - 1)
// CHECK-NEXT: r[[B:[0-9]]] = *(u8 *)(r10 - 1)
// CHECK-NEXT: w[[A]] *= w[[B]]
// CHECK-NEXT: if w[[A]] != 40000 goto
// CHECK-NOT: r0 = 5
// CHECK-NOT: r0 = 9
