// Tests: compound literals: struct and array literals as values, as
// function arguments by pointer, and assigned to existing objects.
// RUN: socket
// EXPECT: retval=0
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define CHECK(n, cond) do { if (!(cond)) return n; } while (0)

struct pt { int x, y; };

static __attribute__((noinline)) int dot(const struct pt *a, const struct pt *b)
{
	return a->x * b->x + a->y * b->y;
}

SEC("socket")
int compound_literal(struct __sk_buff *skb)
{
	volatile int k = 3;
	struct pt p;
	int *arr;

	p = (struct pt){ .x = k, .y = k + 1 };
	CHECK(1, p.x == 3 && p.y == 4);
	CHECK(2, dot(&p, &(struct pt){ 2, -1 }) == 2);
	arr = (int[]){ 5, 6, 7 };
	CHECK(3, arr[0] + arr[2] == 12);
	p = (struct pt){ 0 };
	CHECK(4, p.x == 0 && p.y == 0);
	CHECK(5, ((struct pt){ .y = k }).y == 3);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: dot: (section .text,
// CHECK: compound_literal: (section socket,
// CHECK: *(u32 *)(r10 - 16) = r{{[0-9]}}
// CHECK-NEXT: *(u32 *)(r10 - 12) = r{{[0-9]}}
// CHECK: *(u32 *)(r10 - 24) = 2
// CHECK-NEXT: *(u32 *)(r10 - 20) = -1
// CHECK-NEXT: r2 = r10
// CHECK-NEXT: r2 += -24
// CHECK-NEXT: call dot
// CHECK-NEXT: if w0 != 2 goto
// CHECK: r[[Z:[0-9]]] = 0
// CHECK-NEXT: *(u32 *)(r10 - 16) = r[[Z]]
// CHECK: *(u32 *)(r10 - 12) = r{{[0-9]}}
// CHECK: r[[Y:[0-9]]] = *(u32 *)(r10 - 4)
// CHECK-NEXT: if w[[Y]] != 3 goto
// CHECK-NOT: r0 = 3
