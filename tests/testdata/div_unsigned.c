// Tests: unsigned division and modulo, 32 and 64 bit, by constants
// (including powers of two) and by variables.
// RUN: socket
// EXPECT: retval=0
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define CHECK(n, cond) do { if (!(cond)) return n; } while (0)

SEC("socket")
int div_unsigned(struct __sk_buff *skb)
{
	volatile __u32 a = 4000000000u, d = 7;
	volatile __u64 q = 0xfffffffffffffff0ULL, dq = 0x100000000ULL;
	volatile __u8 b = 200, db = 3;

	CHECK(1, a / d == 571428571u && a % d == 3);
	CHECK(2, a / 16 == 250000000u && a % 16 == 0);
	CHECK(3, a / 1000 == 4000000u);
	CHECK(4, q / dq == 0xffffffffULL && q % dq == 0xfffffff0ULL);
	CHECK(5, q / d == 2635249153387078800ULL && q % d == 0);
	CHECK(6, b / db == 66 && b % db == 2);
	CHECK(7, (a + 1) / a == 1 && 5u / a == 0);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: r[[A:[0-9]]] = *(u32 *)(r10 - 4)
// CHECK-NEXT: r[[D:[0-9]]] = *(u32 *)(r10 - 8)
// CHECK-NEXT: w[[A]] /= w[[D]]
// CHECK-NEXT: if w[[A]] != 571428571 goto
// CHECK: w[[A:[0-9]]] %= w{{[0-9]}}
// CHECK-NEXT: if w[[A]] != 3 goto
// CHECK: w[[A:[0-9]]] >>= 4
// CHECK-NEXT: if w[[A]] != 250000000 goto
// CHECK: if w{{[0-9]}} & 15 goto
// CHECK: w[[A:[0-9]]] /= 1000
// CHECK-NEXT: if w[[A]] != 4000000 goto
// CHECK: r[[Q:[0-9]]] = *(u64 *)(r10 - 16)
// CHECK-NEXT: r[[D:[0-9]]] = *(u64 *)(r10 - 24)
// CHECK-NEXT: r[[Q]] /= r[[D]]
// CHECK: r[[Q:[0-9]]] %= r{{[0-9]}}
// CHECK-NEXT: w[[C:[0-9]]] = -16
// CHECK-NEXT: if r[[Q]] != r[[C]] goto
// CHECK: r[[Q:[0-9]]] = *(u64 *)(r10 - 16)
// CHECK-NEXT: r[[D:[0-9]]] = *(u32 *)(r10 - 8)
// CHECK-NEXT: r[[Q]] /= r[[D]]
// CHECK-NEXT: r[[C:[0-9]]] = 2635249153387078800 ll
// CHECK-NEXT: if r[[Q]] != r[[C]] goto
// CHECK: r{{[0-9]}} = *(u8 *)(r10 - 25)
// CHECK-NEXT: r{{[0-9]}} = *(u8 *)(r10 - 26)
// CHECK: w[[B:[0-9]]] /= w{{[0-9]}}
// CHECK: if w[[B]] != 66 goto
// CHECK: r[[A:[0-9]]] = *(u32 *)(r10 - 4)
// CHECK-NEXT: w[[A]] += 1
// CHECK-NEXT: r[[D:[0-9]]] = *(u32 *)(r10 - 4)
// CHECK-NEXT: w[[A]] /= w[[D]]
// CHECK-NEXT: if w[[A]] != 1 goto
