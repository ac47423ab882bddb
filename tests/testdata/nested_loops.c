// Tests: nested loops where break and continue refer to the innermost loop,
// with loop-carried values across both levels.
// RUN: socket
// EXPECT: retval=0
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define CHECK(n, cond) do { if (!(cond)) return n; } while (0)

SEC("socket")
int nested_loops(struct __sk_buff *skb)
{
	int sum = 0, primes = 0;

	for (int i = 0; i < 6; i++) {
		for (int j = 0; j < 7; j++) {
			if (j > i)
				break;
			if ((i + j) % 3 == 0)
				continue;
			sum += i * j;
		}
	}
	CHECK(1, sum == 96);
	for (int n = 2; n < 30; n++) {
		int d = 2;
		while (d * d <= n) {
			if (n % d == 0)
				break;
			d++;
		}
		if (d * d > n)
			primes++;
	}
	CHECK(2, primes == 10);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: r{{[0-9]}} = 2
// CHECK-NEXT: r[[D:[0-9]]] = 2
// CHECK-NEXT: [[H:[0-9]+]]: r[[Q:[0-9]]] = r[[D]]
// CHECK-NEXT: w[[Q]] *= w[[D]]
// CHECK-NEXT: if w[[Q]] > 5 goto {{[+][0-9]+}} <[[E:[0-9]+]]>
// CHECK: r[[R:[0-9]]] = 5
// CHECK-NEXT: w[[R]] %= w{{[0-9]}}
// The while loop's blocks stay together: the increment follows the
// divisibility test and jumps back; the break leaves to the test after it.
// The dividend 5 is positive: the remainder needs no sign fix-up.
// CHECK-NEXT: if w[[R]] == 0 goto {{[+][0-9]+}} <[[BRK:[0-9]+]]>
// CHECK-NEXT: w[[D]] += 1
// CHECK-NEXT: goto -{{[0-9]+}} <[[H]]>
// CHECK-NEXT: [[BRK]]: if w[[Q]] <= 5 goto
// CHECK: r[[R:[0-9]]] = 29
// CHECK-NEXT: w[[R]] %= w{{[0-9]}}
// CHECK: if w{{[0-9]}} != 10 goto
// CHECK-NEXT: r0 = 0
// CHECK-NEXT: exit
// CHECK-NOT: r0 = 1
