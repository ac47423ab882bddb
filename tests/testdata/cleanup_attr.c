// Tests: __attribute__((cleanup(fn))) calls fn(&var) whenever control
// leaves the variable's block: at its end (innermost variable first), on
// break, continue, return (after the result is computed) and a goto out
// of it; and an attribute list with an empty entry, as libbpf's bpf_for
// macros write `aligned(8), /* comment */, cleanup(...)`.
// RUN: socket
// EXPECT: retval=0
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define CHECK(n, cond) do { if (!(cond)) return n; } while (0)

int trace[16];
unsigned int ntrace;

static __attribute__((noinline)) void record(int *p)
{
	unsigned int n = ntrace;

	if (n < 16) {
		trace[n] = *p;
		ntrace = n + 1;
	}
}

#define traced __attribute__((aligned(8), /* as libbpf writes it, */, cleanup(record)))

static __attribute__((noinline)) int early(int x)
{
	int v traced = x;

	if (x)
		return v + 1;	/* the result is computed before the cleanup */
	v = 5;
	return v;
}

SEC("socket")
int cleanup_attr(struct __sk_buff *skb)
{
	volatile int one = 1;

	{
		int a traced = 1;
		int b traced = 2;
	}
	CHECK(1, ntrace == 2 && trace[0] == 2 && trace[1] == 1);
	for (int i = 0; i < 4; i++) {
		int c traced = 10 + i;

		if (i == 0)
			continue;
		if (i == 2)
			break;
	}
	CHECK(2, ntrace == 5 && trace[2] == 10 && trace[3] == 11 && trace[4] == 12);
	CHECK(3, early(one) == 2 && ntrace == 6 && trace[5] == 1);
	CHECK(4, early(0) == 5 && ntrace == 7 && trace[6] == 5);
	{
		int d traced = 20;

		if (one)
			goto out;
		d = 21;
	}
out:
	CHECK(5, ntrace == 8 && trace[7] == 20);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: record: (section .text,
// CHECK: early: (section .text,
// CHECK: call record
// CHECK: cleanup_attr: (section socket,
// CHECK: call record
// CHECK: call early
