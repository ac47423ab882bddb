// Tests: _Bool: any nonzero value converts to 1, logical not, bools in
// arithmetic, and bool results of comparisons.
// RUN: socket
// EXPECT: retval=0
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define CHECK(n, cond) do { if (!(cond)) return n; } while (0)

SEC("socket")
int bool_type(struct __sk_buff *skb)
{
	volatile int two = 2, zero = 0;
	volatile long big = 0x100000000L; /* low 32 bits are zero */
	_Bool a = two, b = zero, c = big;

	CHECK(1, a == 1);
	CHECK(2, b == 0);
	CHECK(3, c == 1); /* not truncated to the low bits first */
	CHECK(4, a + a == 2);
	CHECK(5, (!two) == 0 && (!zero) == 1);
	CHECK(6, (two > zero) == 1 && (two < zero) == 0);
	CHECK(7, !!big == 1);
	CHECK(8, (_Bool)(two & 1) == 0);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: bool_type: (section socket,
// CHECK: r{{[0-9]}} = 4294967296 ll
// CHECK: if w{{[0-9]}} & 1 goto
