// Tests: switch fallthrough between cases, default in the middle, several
// labels on one statement, break inside nested blocks and a switch inside a
// loop where continue refers to the loop.
// RUN: socket
// EXPECT: retval=0
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define CHECK(n, cond) do { if (!(cond)) return n; } while (0)

static __attribute__((noinline)) int fall(int v)
{
	int r = 0;

	switch (v) {
	case 1:
		r += 1;
		/* fall through */
	case 2:
		r += 10;
		/* fall through */
	default:
		r += 100;
		break;
	case 5:
	case 6:
		r = 5;
		if (v == 6) {
			r = 6;
			break;
		}
		r += 1000;
	}
	return r;
}

SEC("socket")
int switch_fallthrough(struct __sk_buff *skb)
{
	int odd = 0;

	CHECK(1, fall(1) == 111 && fall(2) == 110 && fall(3) == 100);
	CHECK(2, fall(5) == 1005 && fall(6) == 6);
	for (int i = 0; i < 10; i++) {
		switch (i & 1) {
		case 0:
			continue;
		}
		odd++;
	}
	CHECK(3, odd == 5);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: fall: (section .text,
// CHECK-NEXT: if w1 == 1 goto {{[+][0-9]+}} <[[C1:[0-9]+]]>
// CHECK-NEXT: r0 = 0
// CHECK-NEXT: if w1 == 2 goto {{[+][0-9]+}} <[[C2:[0-9]+]]>
// The case 5 label's test of v == 6 is decided there (v is 5): it jumps
// straight to the r += 1000 arm.
// CHECK-NEXT: if w1 == 5 goto {{[+][0-9]+}} <[[C5:[0-9]+]]>
// CHECK-NEXT: if w1 != 6 goto {{[+][0-9]+}} <[[DEF:[0-9]+]]>
// CHECK-NEXT: r0 = 6
// CHECK-NEXT: [[RET:[0-9]+]]: exit
// CHECK-NEXT: [[C1]]: r0 = 1
// CHECK-NEXT: [[C2]]: w0 += 10
// CHECK-NEXT: [[DEF]]: w0 += 100
// CHECK-NEXT: goto -{{[0-9]+}} <[[RET]]>
// CHECK-NEXT: [[C5]]: r0 = 1005
// CHECK-NEXT: goto -{{[0-9]+}} <[[RET]]>

// CHECK: switch_fallthrough: (section socket,
// CHECK: call fall
// CHECK-NEXT: if w0 != 111 goto
// CHECK: r1 = 6
// CHECK-NEXT: call fall
// CHECK-NEXT: if w0 == 6 goto
// CHECK-NOT: r0 = 3
