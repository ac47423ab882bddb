// Tests: a loop's early exit on `delta != 0` leads to code that tests
// delta again (the inlined `return delta` and the caller's `if`); that edge
// jumps straight to the caller's true arm, so the compare is emitted once.
// RUN: socket
// EXPECT: retval=2
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char buf[100] = "hello";
static const char want[100] = "hello";

static __attribute__((always_inline)) int cmp(const void *m1, const void *m2, unsigned long len)
{
	const unsigned char *s1 = m1, *s2 = m2;
	int i, delta = 0;

	for (i = 0; i < len; i++) {
		delta = s1[i] - s2[i];
		if (delta || s1[i] == 0 || s2[i] == 0)
			break;
	}
	return delta;
}

SEC("socket")
int retest_after_loop(struct __sk_buff *skb)
{
	return cmp(buf, want, sizeof(want)) ? 1 : 2;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: retest_after_loop: (section socket,
// CHECK: w[[D:[0-9]]] -= w{{[0-9]}}
// CHECK-NEXT: if w[[D]] != 0 goto {{[+][0-9]+}} <[[NE:[0-9]+]]>
// CHECK-NEXT: if w{{[0-9]}} == 0 goto {{[+][0-9]+}} <[[EQ:[0-9]+]]>
// CHECK-NEXT: if w{{[0-9]}} == 0 goto {{[+][0-9]+}} <[[EQ]]>
// CHECK-NEXT: w{{[0-9]}} += 1
// CHECK-NEXT: if r{{[0-9]}} < 100 goto
// CHECK-NEXT: [[EQ]]: r0 = 2
// CHECK-NEXT: exit
// CHECK-NEXT: [[NE]]: r0 = 1
// CHECK-NOT: if w[[D]]
