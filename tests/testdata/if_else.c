// Tests: if/else chains, nested ifs, dangling else, and conditions on
// values of different widths.
// RUN: socket
// PACKET: ipv4-tcp payload=6
// EXPECT: retval=0
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

/* The dangling else below is the point of one check. */
#pragma GCC diagnostic ignored "-Wdangling-else"

#define CHECK(n, cond) do { if (!(cond)) return n; } while (0)

static __attribute__((noinline)) int classify(int v)
{
	if (v < 0)
		return -1;
	else if (v == 0)
		return 0;
	else if (v < 10)
		return 1;
	else if (v < 100) {
		if (v & 1)
			return 3;
		else
			return 2;
	}
	return 4;
}

SEC("socket")
int if_else(struct __sk_buff *skb)
{
	int len = skb->len; /* 40 + 6 */
	int r = 0;

	CHECK(1, classify(-5) == -1 && classify(0) == 0 && classify(7) == 1);
	CHECK(2, classify(len) == 2 && classify(len + 1) == 3 && classify(1000) == 4);
	if (len > 40)
		if (len > 100)
			r = 1;
		else
			r = 2; /* binds to the inner if */
	CHECK(3, r == 2);
	if (len == 46) {
		r = 10;
	} else {
		r = 20;
	}
	CHECK(4, r == 10);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: classify: (section .text,
// CHECK-NEXT: if w1 s< 0 goto
// CHECK-NEXT: if w1 == 0 goto
// CHECK-NEXT: if w1 < 10 goto
// CHECK-NEXT: if w1 >= 100 goto
// CHECK-NEXT: if w1 & 1 goto
// CHECK: if_else: (section socket,
// CHECK: r[[L:[0-9]]] = *(u32 *)(r1 + 0)
// CHECK: r1 = r[[L]]
// CHECK-NEXT: call classify
// CHECK-NEXT: if w0 != 2 goto
// CHECK-NEXT: r1 = r[[L]]
// CHECK-NEXT: w1 += 1
// CHECK-NEXT: call classify
// CHECK-NEXT: if w0 != 3 goto
// CHECK: if w[[L]] s<= 40 goto {{[+][0-9]+}} <[[F3:[0-9]+]]>
// CHECK-NEXT: if w[[L]] > 100 goto {{[+][0-9]+}} <[[F3]]>
// CHECK-NEXT: if w[[L]] != 46 goto
// CHECK-NEXT: r0 = 0
// CHECK: [[F3]]: r0 = 3
