// Tests: signed and unsigned comparisons, including mixes where the usual
// arithmetic conversions turn -1 into UINT_MAX, and 64-bit comparisons.
// RUN: socket
// EXPECT: retval=0
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define CHECK(n, cond) do { if (!(cond)) return n; } while (0)

SEC("socket")
int compare_mixed(struct __sk_buff *skb)
{
	volatile int m1 = -1, one = 1;
	volatile unsigned int u1 = 1;
	volatile long lm1 = -1;
	volatile unsigned long ul = 1;
	volatile short sm1 = -1;
	volatile unsigned short us = 1;
	volatile __s64 big = 0x7fffffffffffffffLL;

	CHECK(1, m1 < one);
	CHECK(2, !((unsigned int)m1 < u1));      /* -1 becomes UINT_MAX */
	CHECK(3, m1 > (int)u1 == 0);
	CHECK(4, lm1 < (long)u1);                 /* unsigned int fits in long */
	CHECK(5, !((unsigned long)lm1 < ul));
	CHECK(6, sm1 < us);                       /* both promote to int */
	CHECK(7, m1 <= m1 && m1 >= m1 && m1 != one && one == (int)u1);
	CHECK(8, big > 0 && -big < 0);
	CHECK(9, (__u64)big < 0x8000000000000000ULL);
	CHECK(10, (unsigned char)m1 > one);
	CHECK(11, (lm1 < 0) + (lm1 > 0) + (lm1 == 0) == 1);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: r[[A:[0-9]]] = *(u32 *)(r10 - 4)
// CHECK-NEXT: r[[B:[0-9]]] = *(u32 *)(r10 - 8)
// CHECK-NEXT: if w[[A]] s>= w[[B]] goto
// CHECK: r[[A:[0-9]]] = *(u32 *)(r10 - 4)
// CHECK-NEXT: r[[B:[0-9]]] = *(u32 *)(r10 - 12)
// CHECK-NEXT: if w[[A]] < w[[B]] goto
// CHECK: r[[A:[0-9]]] = *(u32 *)(r10 - 4)
// CHECK-NEXT: r[[B:[0-9]]] = *(u32 *)(r10 - 12)
// CHECK-NEXT: if w[[A]] s> w[[B]] goto
// CHECK: r[[A:[0-9]]] = *(u64 *)(r10 - 24)
// CHECK-NEXT: r[[B:[0-9]]] = *(u32 *)(r10 - 12)
// CHECK-NEXT: if r[[A]] s>= r[[B]] goto
// CHECK: r[[A:[0-9]]] = *(u64 *)(r10 - 24)
// CHECK-NEXT: r[[B:[0-9]]] = *(u64 *)(r10 - 32)
// CHECK-NEXT: if r[[A]] < r[[B]] goto
// CHECK: r[[A:[0-9]]] = *(u16 *)(r10 - 34)
// CHECK-NEXT: r[[A]] <<= 48
// CHECK-NEXT: r[[A]] s>>= 48
// CHECK-NEXT: r[[B:[0-9]]] = *(u16 *)(r10 - 36)
// CHECK-NEXT: if w[[A]] s>= w[[B]] goto
// CHECK: r[[A:[0-9]]] = *(u64 *)(r10 - 48)
// CHECK-NEXT: if r[[A]] s<= 0 goto
// CHECK-NEXT: r[[A]] = *(u64 *)(r10 - 48)
// CHECK-NEXT: r[[A]] = -r[[A]]
// CHECK-NEXT: if r[[A]] s>= 0 goto
// CHECK-NEXT: r[[A:[0-9]]] = *(u64 *)(r10 - 48)
// CHECK-NEXT: r[[B:[0-9]]] = -9223372036854775808 ll
// CHECK-NEXT: if r[[A]] >= r[[B]] goto
// CHECK-NEXT: r[[A:[0-9]]] = *(u32 *)(r10 - 4)
// CHECK-NEXT: r[[A]] &= 255
// CHECK-NEXT: r[[B:[0-9]]] = *(u32 *)(r10 - 8)
// CHECK-NEXT: if w[[A]] s<= w[[B]] goto
