// Tests: && and || evaluate their right operand only when needed: side
// effects (increments, calls) on the skipped side must not happen.
// RUN: socket
// EXPECT: retval=0
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define CHECK(n, cond) do { if (!(cond)) return n; } while (0)

static int calls;

static __attribute__((noinline)) int bump(int v)
{
	calls++;
	return v;
}

SEC("socket")
int short_circuit(struct __sk_buff *skb)
{
	volatile int zero = 0, one = 1, two = 2;
	int i = 0, r;

	r = zero && i++;
	CHECK(1, r == 0 && i == 0);
	r = one || i++;
	CHECK(2, r == 1 && i == 0);
	r = one && i++;
	CHECK(3, r == 0 && i == 1); /* i++ yields the old value, 0 */
	r = zero || ++i;
	CHECK(4, r == 1 && i == 2);
	calls = 0;
	r = bump(0) && bump(1);
	CHECK(5, r == 0 && calls == 1);
	r = bump(1) || bump(1);
	CHECK(6, r == 1 && calls == 2);
	r = (bump(1) && bump(0)) || bump(1);
	CHECK(7, r == 1 && calls == 5);
	r = one && two;
	CHECK(8, r == 1);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: short_circuit: (section socket,
// CHECK: r[[Z:[0-9]]] = *(u32 *)(r10 - 4)
// CHECK-NEXT: if w[[Z]] != 0 goto
// CHECK-NEXT: r[[O:[0-9]]] = *(u32 *)(r10 - 8)
// CHECK-NEXT: if w[[O]] == 0 goto
// CHECK-NEXT: r[[O:[0-9]]] = *(u32 *)(r10 - 8)
// CHECK-NEXT: if w[[O]] == 0 goto
// CHECK-NEXT: r[[Z:[0-9]]] = *(u32 *)(r10 - 4)
// CHECK-NEXT: if w[[Z]] != 0 goto
// CHECK: r1 = 0
// CHECK-NEXT: call bump
// CHECK-NEXT: if w0 != 0 goto {{[+][0-9]+}} <[[AND:[0-9]+]]>
// CHECK-NEXT: [[C1:[0-9]+]]: r[[C:[0-9]]] = calls ll
// CHECK-NEXT: r[[C]] = *(u32 *)(r[[C]] + 0)
// CHECK-NEXT: if w[[C]] != 1 goto
// CHECK-NEXT: r1 = 1
// CHECK-NEXT: call bump
// CHECK-NEXT: if w0 == 0 goto {{[+][0-9]+}} <[[OR:[0-9]+]]>
// CHECK-NEXT: [[C2:[0-9]+]]: r[[C:[0-9]]] = calls ll
// CHECK-NEXT: r[[C]] = *(u32 *)(r[[C]] + 0)
// CHECK-NEXT: if w[[C]] != 2 goto
// CHECK: r[[C:[0-9]]] = calls ll
// CHECK-NEXT: r[[C]] = *(u32 *)(r[[C]] + 0)
// CHECK-NEXT: if w[[C]] != 5 goto
// CHECK: [[AND]]: r1 = 1
// CHECK-NEXT: call bump
// CHECK-NEXT: if w0 != 0 goto
// CHECK-NEXT: goto -{{[0-9]+}} <[[C1]]>
// CHECK-NEXT: [[OR]]: r1 = 1
// CHECK-NEXT: call bump
// CHECK-NEXT: if w0 != 0 goto -{{[0-9]+}} <[[C2]]>
