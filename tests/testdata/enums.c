// Tests: enums with implicit, explicit and negative values, enum variables,
// sizeof an enum and a switch on an enum.
// RUN: socket
// EXPECT: retval=0
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define CHECK(n, cond) do { if (!(cond)) return n; } while (0)

enum color { RED, GREEN, BLUE = 10, CYAN, NEG = -3, AFTER_NEG };

static __always_inline int score(enum color c)
{
	switch (c) {
	case RED:
		return 1;
	case GREEN:
		return 2;
	case BLUE:
		return 3;
	case NEG:
		return 4;
	default:
		return 5;
	}
}

SEC("socket")
int enums(struct __sk_buff *skb)
{
	volatile enum color c = CYAN;

	CHECK(1, RED == 0 && GREEN == 1 && BLUE == 10 && CYAN == 11);
	CHECK(2, NEG == -3 && AFTER_NEG == -2);
	CHECK(3, sizeof(enum color) == 4);
	CHECK(4, c == 11);
	CHECK(5, score(c) == 5);
	c = NEG;
	CHECK(6, score(c) == 4 && c < 0);
	c = GREEN;
	CHECK(7, score(c) == 2);
	CHECK(8, c + BLUE == 11);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK-NOT: r0 = 1
// CHECK: r[[C:[0-9]]] = 11
// CHECK-NEXT: *(u32 *)(r10 - 4) = r[[C]]
// CHECK-NEXT: r[[C:[0-9]]] = *(u32 *)(r10 - 4)
// CHECK-NEXT: if w[[C]] != 11 goto
// CHECK-NEXT: r[[C:[0-9]]] = *(u32 *)(r10 - 4)
// CHECK-NEXT: if w[[C]] == -3 goto
// CHECK-NEXT: if w[[C]] == 0 goto
// CHECK-NEXT: if w[[C]] == 1 goto
// CHECK-NEXT: if w[[C]] == 10 goto
// CHECK-NEXT: r[[C:[0-9]]] = -3
// CHECK-NEXT: *(u32 *)(r10 - 4) = r[[C]]
// CHECK-NEXT: r[[C:[0-9]]] = *(u32 *)(r10 - 4)
// CHECK-NEXT: if w[[C]] != -3 goto
// CHECK-NEXT: r[[C:[0-9]]] = *(u32 *)(r10 - 4)
// CHECK-NEXT: if w[[C]] s>= 0 goto
// CHECK: w[[C:[0-9]]] += 10
// CHECK-NEXT: if w[[C]] != 11 goto
// CHECK-NOT: r0 = 2
// CHECK-NOT: r0 = 3
