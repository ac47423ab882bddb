// Tests: objects of disjoint blocks share stack memory, as clang's stack
// colouring lets them: three 200-byte buffers in sibling blocks, two
// 240-byte structs in switch cases and one in a loop body fit in one
// 512-byte frame; each block's result must survive the others' writes.
// RUN: socket
// EXPECT: retval=0
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct big {
	__u64 w[30];
};

static __attribute__((noinline)) int sum(struct big *b)
{
	int s = 0;

	for (int i = 0; i < 30; i++)
		s += b->w[i];
	return s;
}

SEC("socket")
int stack_scopes(struct __sk_buff *skb)
{
	volatile int sel = 2;
	int total = 0, a, b;

	{
		char buf[200];

		__builtin_memset(buf, 1, sizeof(buf));
		a = buf[0] + buf[199];
	}
	{
		char buf[200];

		__builtin_memset(buf, 2, sizeof(buf));
		b = buf[7] + buf[150];
	}
	{
		char other[200];

		__builtin_memset(other, 3, sizeof(other));
		total = other[13] + a + b;
	}
	switch (sel) {
	case 1: {
		struct big x = {};

		x.w[3] = 100;
		total += sum(&x);
		break;
	}
	case 2: {
		struct big y = {};

		y.w[29] = 1000;
		total += sum(&y);
		break;
	}
	}
	for (int i = 0; i < 2; i++) {
		struct big z = {};

		z.w[i] = i + 1;
		total += sum(&z);
	}
	if (a != 2 || b != 4)
		return 1;
	if (total != 3 + 2 + 4 + 1000 + 1 + 2)
		return 2;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// The three 200-byte buffers fold away (a + b + other[13] is 9); x, y and
// each z share the frame's 248 bytes:
// CHECK: stack_scopes: (section socket, {{[0-9]+}} insns, stack 248)
// CHECK-NOT: r10 - {{(249|2[5-9][0-9]|[3-9][0-9][0-9])}})
// CHECK: r1 += -248
// CHECK: *(u64 *)(r10 - 248) = 0
// CHECK: *(u64 *)(r10 - 224) = 100
// CHECK: [[CALL:[0-9]+]]: call sum
// CHECK: r1 += -248
// CHECK: *(u64 *)(r10 - 248) = 1
// CHECK: call sum
// CHECK: r1 += -248
// CHECK: *(u64 *)(r10 - 248) = 0
// CHECK-NEXT: *(u64 *)(r10 - 240) = 2
// CHECK: call sum
// CHECK: if w{{[0-9]}} == 1012 goto
// CHECK: r1 += -248
// CHECK: *(u64 *)(r10 - 248) = 0
// CHECK: *(u64 *)(r10 - 16) = 1000
// CHECK-NEXT: goto -{{[0-9]+}} <[[CALL]]>
// CHECK-NOT: r10 - {{(249|2[5-9][0-9]|[3-9][0-9][0-9])}})
