// Tests: left shifts, logical right shifts of unsigned values, arithmetic
// right shifts of signed values (32 and 64 bit), shifts by a variable
// amount, and shifts of promoted narrow types.
// RUN: socket
// EXPECT: retval=0
// ASM: "s>>="
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define CHECK(n, cond) do { if (!(cond)) return n; } while (0)

SEC("socket")
int shifts(struct __sk_buff *skb)
{
	volatile int neg = -256;
	volatile long nl = -0x100000000L;
	volatile unsigned int u = 0x80000000u;
	volatile __u64 uq = 0x8000000000000000ULL;
	volatile int k = 4;
	volatile __u8 b = 0x81;

	CHECK(1, (neg >> 4) == -16);
	CHECK(2, (neg >> k) == -16);
	CHECK(3, (nl >> 32) == -1);
	CHECK(4, (nl >> k) == -0x10000000L);
	CHECK(5, (u >> 31) == 1 && (u >> k) == 0x08000000u);
	CHECK(6, (uq >> 63) == 1 && (uq >> k) == 0x0800000000000000ULL);
	CHECK(7, (1 << k) == 16 && (1UL << (k + 40)) == 0x100000000000ULL);
	CHECK(8, (u << 1) == 0);
	CHECK(9, (b << 1) == 0x102);          /* promoted to int first */
	CHECK(10, (__u8)(b << 1) == 0x02);
	CHECK(11, ((int)u >> 31) == -1);       /* signed view of the same bits */
	CHECK(12, (neg << 2) == -1024);
	CHECK(13, ((__s8)b >> 1) == -64);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: r[[A:[0-9]]] = *(u32 *)(r10 - 4)
// CHECK-NEXT: w[[A]] s>>= 4
// CHECK-NEXT: if w[[A]] != -16 goto
// CHECK-NEXT: r[[A:[0-9]]] = *(u32 *)(r10 - 4)
// CHECK-NEXT: r[[K:[0-9]]] = *(u32 *)(r10 - 36)
// CHECK-NEXT: w[[A]] s>>= w[[K]]
// CHECK-NEXT: if w[[A]] != -16 goto
// CHECK-NEXT: r[[A:[0-9]]] = *(u64 *)(r10 - 16)
// CHECK-NEXT: r[[A]] s>>= 32
// CHECK-NEXT: if r[[A]] != -1 goto
// CHECK-NEXT: r[[A:[0-9]]] = *(u64 *)(r10 - 16)
// CHECK-NEXT: r[[K:[0-9]]] = *(u32 *)(r10 - 36)
// CHECK-NEXT: r[[A]] s>>= r[[K]]
// CHECK-NEXT: if r[[A]] != -268435456 goto
// CHECK-NEXT: r[[A:[0-9]]] = *(u32 *)(r10 - 20)
// CHECK-NEXT: w[[A]] >>= 31
// CHECK-NEXT: if w[[A]] != 1 goto
// CHECK-NEXT: r[[A:[0-9]]] = *(u32 *)(r10 - 20)
// CHECK-NEXT: r[[K:[0-9]]] = *(u32 *)(r10 - 36)
// CHECK-NEXT: w[[A]] >>= w[[K]]
// CHECK-NEXT: if w[[A]] != 134217728 goto
// CHECK-NEXT: r[[A:[0-9]]] = *(u64 *)(r10 - 32)
// CHECK-NEXT: r[[A]] >>= 63
// CHECK-NEXT: if r[[A]] != 1 goto
// CHECK-NEXT: r[[A:[0-9]]] = *(u64 *)(r10 - 32)
// CHECK-NEXT: r[[K:[0-9]]] = *(u32 *)(r10 - 36)
// CHECK-NEXT: r[[A]] >>= r[[K]]
// CHECK: r[[K:[0-9]]] = *(u32 *)(r10 - 36)
// CHECK-NEXT: r[[A:[0-9]]] = 1
// CHECK-NEXT: w[[A]] <<= w[[K]]
// CHECK-NEXT: if w[[A]] != 16 goto
// CHECK-NEXT: r[[K:[0-9]]] = *(u32 *)(r10 - 36)
// CHECK-NEXT: w[[K]] += 40
// CHECK-NEXT: r[[A:[0-9]]] = 1
// CHECK-NEXT: r[[A]] <<= r[[K]]
// CHECK-NEXT: r[[C:[0-9]]] = 17592186044416 ll
// CHECK-NEXT: if r[[A]] != r[[C]] goto
// CHECK-NEXT: r[[A:[0-9]]] = *(u32 *)(r10 - 20)
// CHECK-NEXT: w[[A]] <<= 1
// CHECK-NEXT: if w[[A]] != 0 goto
// CHECK-NEXT: r[[A:[0-9]]] = *(u8 *)(r10 - 37)
// CHECK-NEXT: w[[A]] <<= 1
// CHECK-NEXT: if w[[A]] != 258 goto
// CHECK-NEXT: r[[A:[0-9]]] = *(u8 *)(r10 - 37)
// CHECK-NEXT: w[[A]] <<= 1
// CHECK-NEXT: r[[A]] &= 255
// CHECK-NEXT: if w[[A]] != 2 goto
// CHECK-NEXT: r[[A:[0-9]]] = *(u32 *)(r10 - 20)
// CHECK-NEXT: w[[A]] s>>= 31
// CHECK-NEXT: if w[[A]] != -1 goto
// CHECK-NEXT: r[[A:[0-9]]] = *(u32 *)(r10 - 4)
// CHECK-NEXT: w[[A]] <<= 2
// CHECK-NEXT: if w[[A]] != -1024 goto
// CHECK-NEXT: r[[A:[0-9]]] = *(u8 *)(r10 - 37)
// CHECK-NEXT: r[[A]] <<= 56
// CHECK-NEXT: r[[A]] s>>= 56
// CHECK-NEXT: w[[A]] s>>= 1
// CHECK-NEXT: if w[[A]] != -64 goto
