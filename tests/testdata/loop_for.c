// Tests: for loops with break and continue, a loop bound the compiler cannot
// know (skb->len), and a loop that runs zero times.
// RUN: socket
// PACKET: ipv4-udp payload=12
// EXPECT: retval=0
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define CHECK(n, cond) do { if (!(cond)) return n; } while (0)

SEC("socket")
int loop_for(struct __sk_buff *skb)
{
	__u32 n = skb->len; /* 20 + 8 + 12 = 40 */
	int sum = 0, evens = 0, i;

	for (i = 0; i < 64; i++) {
		if (i >= n)
			break;
		if (i % 2)
			continue;
		evens++;
		sum += i;
	}
	CHECK(1, i == 40);
	CHECK(2, evens == 20 && sum == 380);
	sum = 0;
	for (i = n; i < 10; i++)
		sum++;
	CHECK(3, sum == 0);
	for (i = 0;; i++)
		if (i * i > n)
			break;
	CHECK(4, i == 7);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: r[[N:[0-9]]] = *(u32 *)(r1 + 0)
// CHECK: [[HEAD:[0-9]+]]: if w[[I:[0-9]]] >= w[[N]] goto {{[+][0-9]+}} <[[OUT:[0-9]+]]>
// CHECK-NEXT: r[[T:[0-9]]] = r[[I]]
// CHECK-NEXT: w[[T]] &= 1
// CHECK-NEXT: if w[[T]] != 0 goto {{[+][0-9]+}} <[[INC:[0-9]+]]>
// CHECK-NEXT: w[[E:[0-9]]] += 1
// CHECK-NEXT: w[[S:[0-9]]] += w[[I]]
// CHECK-NEXT: [[INC]]: w[[I]] += 1
// CHECK-NEXT: if w[[I]] < 64 goto -{{[0-9]+}} <[[HEAD]]>
// CHECK-NEXT: [[OUT]]: if w[[I]] != 40 goto
// CHECK-NEXT: if w[[E]] != 20 goto
// CHECK-NEXT: if w[[S]] == 380 goto
// CHECK: r[[S]] = 0
// CHECK-NEXT: r[[I]] = r[[N]]
// CHECK-NEXT: [[H2:[0-9]+]]: if w[[I]] s>= 10 goto {{[+][0-9]+}} <[[O2:[0-9]+]]>
// CHECK-NEXT: w[[S]] += 1
// CHECK-NEXT: w[[I]] += 1
// CHECK-NEXT: goto -{{[0-9]+}} <[[H2]]>
// CHECK-NEXT: [[O2]]: if w[[S]] == 0 goto
// CHECK: r[[I]] = 0
// CHECK-NEXT: [[H3:[0-9]+]]: r[[T3:[0-9]]] = r[[I]]
// CHECK-NEXT: w[[T3]] *= w[[I]]
// CHECK-NEXT: if w[[T3]] > w[[N]] goto {{[+][0-9]+}} <[[O3:[0-9]+]]>
// CHECK-NEXT: w[[I]] += 1
// CHECK-NEXT: goto -{{[0-9]+}} <[[H3]]>
// CHECK-NEXT: [[O3]]: if w[[I]] != 7 goto
