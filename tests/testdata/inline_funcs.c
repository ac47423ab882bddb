// Tests: static __always_inline functions (several levels, pointer
// parameters written through, early returns) leave no call in the listing.
// RUN: socket
// EXPECT: retval=0
// ASM: -"call"
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define CHECK(n, cond) do { if (!(cond)) return n; } while (0)

static __always_inline int sq(int x) { return x * x; }
static __always_inline int hyp2(int a, int b) { return sq(a) + sq(b); }
static __always_inline void swap(int *a, int *b)
{
	int t = *a;
	*a = *b;
	*b = t;
}
static __always_inline int sign(long v)
{
	if (v < 0)
		return -1;
	if (v > 0)
		return 1;
	return 0;
}

SEC("socket")
int inline_funcs(struct __sk_buff *skb)
{
	volatile int a0 = 3, b0 = 4;
	int a = a0, b = b0;

	CHECK(1, hyp2(a, b) == 25);
	swap(&a, &b);
	CHECK(2, a == 4 && b == 3);
	CHECK(3, sign(-a) == -1 && sign(0) == 0 && sign(b) == 1);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: inline_funcs: (section socket,
// CHECK-NOT: call
// CHECK: w{{[0-9]}} *= w{{[0-9]}}
// CHECK: if w{{[0-9]}} != 25 goto
