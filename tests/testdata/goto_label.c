// Tests: goto forward (error-exit style), backward (a loop built from
// labels) and out of nested loops.
// RUN: socket
// EXPECT: retval=0
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define CHECK(n, cond) do { if (!(cond)) return n; } while (0)

static __attribute__((noinline)) int find(int want)
{
	int i, j;

	for (i = 0; i < 8; i++)
		for (j = 0; j < 8; j++)
			if (i * 8 + j == want)
				goto found;
	return -1;
found:
	return i * 100 + j;
}

SEC("socket")
int goto_label(struct __sk_buff *skb)
{
	int n = 0, err = 0;

again:
	n++;
	if (n < 5)
		goto again;
	CHECK(1, n == 5);
	CHECK(2, find(19) == 203 && find(99) == -1);
	if (n != 5) {
		err = 1;
		goto out;
	}
	err = 0;
out:
	CHECK(3, err == 0);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: find: (section .text,
// CHECK: if w[[W:[0-9]]] == 0 goto {{[+][0-9]+}} <[[F:[0-9]+]]>
// CHECK: if w[[W]] == 19 goto {{[+][0-9]+}} <[[F]]>
// CHECK: if w[[W]] == 63 goto {{[+][0-9]+}} <[[F]]>
// CHECK-NEXT: r0 = -1
// CHECK-NEXT: exit
// CHECK-NEXT: [[F]]: w0 *= 100
// CHECK-NEXT: w0 += w{{[0-9]}}
// CHECK-NEXT: exit
// CHECK: goto_label: (section socket,
// CHECK: [[L:[0-9]+]]: w[[N:[0-9]]] += 1
// CHECK-NEXT: if w[[N]] < 5 goto -{{[0-9]+}} <[[L]]>
// CHECK-NEXT: if w[[N]] != 5 goto
// CHECK-NEXT: r1 = 19
// CHECK-NEXT: call find
// CHECK-NEXT: if w0 != 203 goto
// CHECK-NEXT: r1 = 99
// CHECK-NEXT: call find
// CHECK-NEXT: if w0 == -1 goto
// CHECK-NOT: r0 = 3
