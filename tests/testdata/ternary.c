// Tests: the conditional operator: value selection, nesting, only the
// chosen arm evaluated, and the result type of mixed arms.
// RUN: socket
// EXPECT: retval=0
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define CHECK(n, cond) do { if (!(cond)) return n; } while (0)

static __always_inline int clamp(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

SEC("socket")
int ternary(struct __sk_buff *skb)
{
	volatile int a = 5, b = -5;
	int i = 0, j = 0;
	int r;

	CHECK(1, (a > b ? a : b) == 5);
	CHECK(2, (a < b ? a : b) == -5);
	CHECK(3, clamp(b, 0, 3) == 0 && clamp(a, 0, 3) == 3 && clamp(2, 0, 3) == 2);
	r = a ? i++ : j++;
	CHECK(4, r == 0 && i == 1 && j == 0);
	r = b > 0 ? i++ : j++;
	CHECK(5, r == 0 && i == 1 && j == 1);
	CHECK(6, (a ? -1 : 1u) == 0xffffffffu);  /* int and unsigned: unsigned */
	CHECK(7, sizeof(a ? 1 : 1L) == 8);
	CHECK(8, (b ?: 9) == -5);                 /* GNU ?: */
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: r[[A:[0-9]]] = *(u32 *)(r10 - 4)
// CHECK-NEXT: r[[B:[0-9]]] = *(u32 *)(r10 - 8)
// CHECK-NEXT: if w[[A]] s<= w[[B]] goto {{[+][0-9]+}} <[[ELSE1:[0-9]+]]>
// CHECK-NEXT: r[[R:[0-9]]] = *(u32 *)(r10 - 4)
// CHECK-NEXT: [[J1:[0-9]+]]: if w[[R]] != 5 goto
// CHECK-NEXT: r[[A:[0-9]]] = *(u32 *)(r10 - 4)
// CHECK-NEXT: r[[B:[0-9]]] = *(u32 *)(r10 - 8)
// CHECK-NEXT: if w[[A]] s>= w[[B]] goto {{[+][0-9]+}} <[[ELSE2:[0-9]+]]>
// CHECK-NEXT: r[[R:[0-9]]] = *(u32 *)(r10 - 4)
// CHECK-NEXT: [[J2:[0-9]+]]: if w[[R]] != -5 goto
// CHECK-NEXT: r[[V:[0-9]]] = *(u32 *)(r10 - 8)
// CHECK-NEXT: if w[[V]] s< 0 goto
// CHECK-NEXT: if w[[V]] > 3 goto
// CHECK: if w{{[0-9]}} <= 3 goto
// CHECK-NEXT: r[[V:[0-9]]] = *(u32 *)(r10 - 4)
// CHECK-NEXT: if w[[V]] == 0 goto
// CHECK-NEXT: r[[V:[0-9]]] = *(u32 *)(r10 - 8)
// CHECK-NEXT: if w[[V]] s> 0 goto
// CHECK-NEXT: r[[V:[0-9]]] = *(u32 *)(r10 - 4)
// CHECK-NEXT: if w[[V]] == 0 goto
// CHECK-NEXT: r[[V:[0-9]]] = *(u32 *)(r10 - 8)
// CHECK-NEXT: if w[[V]] == 0 goto
// CHECK-NEXT: r[[V:[0-9]]] = *(u32 *)(r10 - 8)
// CHECK-NEXT: if w[[V]] != -5 goto
// CHECK-NEXT: r0 = 0
// CHECK-NEXT: exit
// CHECK-NEXT: [[ELSE1]]: r[[R:[0-9]]] = *(u32 *)(r10 - 8)
// CHECK-NEXT: goto -{{[0-9]+}} <[[J1]]>
// CHECK-NEXT: [[ELSE2]]: r[[R:[0-9]]] = *(u32 *)(r10 - 8)
// CHECK-NEXT: goto -{{[0-9]+}} <[[J2]]>
// CHECK-NOT: r0 = 7
