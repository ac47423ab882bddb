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
