// Tests: while and do-while loops with break and continue; do-while runs
// its body at least once.
// RUN: socket
// EXPECT: retval=0
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define CHECK(n, cond) do { if (!(cond)) return n; } while (0)

SEC("socket")
int loop_while_do(struct __sk_buff *skb)
{
	volatile unsigned int seed = 0x12345678;
	unsigned int v = seed, bits = 0;
	int i = 0, runs = 0;

	while (v) {            /* popcount */
		bits += v & 1;
		v >>= 1;
	}
	CHECK(1, bits == 13);
	do {
		runs++;
	} while (runs < 0);
	CHECK(2, runs == 1);
	i = 0;
	while (1) {
		i++;
		if (i < 5)
			continue;
		if (i == 9)
			break;
	}
	CHECK(3, i == 9);
	i = 100;
	do {
		if (i % 7 == 0)
			break;
		i--;
	} while (i > 0);
	CHECK(4, i == 98);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: r[[V:[0-9]]] = *(u32 *)(r10 - 4)
// CHECK-NEXT: r[[B:[0-9]]] = 0
// CHECK-NEXT: [[W:[0-9]+]]: if w[[V]] == 0 goto {{[+][0-9]+}} <[[O:[0-9]+]]>
// CHECK-NEXT: r[[T:[0-9]]] = r[[V]]
// CHECK-NEXT: w[[T]] &= 1
// CHECK-NEXT: w[[B]] += w[[T]]
// CHECK-NEXT: w[[V]] >>= 1
// CHECK-NEXT: goto -{{[0-9]+}} <[[W]]>
// CHECK-NEXT: [[O]]: if w[[B]] != 13 goto
// CHECK-NEXT: r[[I:[0-9]]] = 0
// CHECK-NEXT: [[L:[0-9]+]]: w[[I]] += 1
// CHECK-NEXT: if w[[I]] < 5 goto -{{[0-9]+}} <[[L]]>
// CHECK-NEXT: if w[[I]] != 9 goto -{{[0-9]+}} <[[L]]>
// CHECK-NEXT: r[[I:[0-9]]] = 100
// CHECK-NEXT: [[D:[0-9]+]]: r{{[0-9]}} = r[[I]]
// CHECK: w[[M:[0-9]]] %= 7
// CHECK: if w[[M]] == 0 goto {{[+][0-9]+}} <[[O:[0-9]+]]>
// CHECK-NEXT: w[[I]] -= 1
// CHECK-NEXT: if w[[I]] s> 0 goto -{{[0-9]+}} <[[D]]>
// CHECK-NEXT: [[O]]: if w[[I]] != 98 goto
// CHECK-NOT: r0 = 2
