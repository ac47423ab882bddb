// Tests: unsigned __int128 and __int128 (bcc's libbpf-tools keep IPv6
// addresses in them): copies, widening from 32 and 64 bits, truncation,
// the carry of an addition and the borrow of a subtraction, the bitwise
// operations, shifts by constants across the halves, comparisons (an
// order decided by either half) and tests for zero. Each check is one bit
// of the result; the operands come from a volatile global, so nothing
// folds.
// RUN: socket
// EXPECT: retval=16383
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

typedef unsigned __int128 u128;
typedef __int128 s128;

volatile __u64 ones = ~0ULL, three = 3;
volatile int minus_two = -2;

struct ev {
	__u32 tag;
	u128 addr;
};

SEC("socket")
int int128_ops(struct __sk_buff *skb)
{
	struct ev a = {}, b;
	u128 x = ones, y = three; /* widened: high halves 0 */
	s128 m = minus_two;       /* widened: high half all ones */
	int ok = 0;

	a.addr = x;
	b = a;
	ok |= (b.addr == x) << 0;
	x += 1; /* carry into the high half */
	ok |= ((__u64)(x >> 64) == 1 && (__u64)x == 0) << 1;
	x -= y; /* borrow from it */
	ok |= ((__u64)(x >> 64) == 0 && (__u64)x == ones - 2) << 2;
	ok |= (m < 0) << 3;
	ok |= ((__u64)(m >> 64) == ones && (__u64)(m >> 100) == ones) << 4;
	ok |= ((y << 70) > x) << 5;        /* decided by the high halves */
	ok |= ((u128)three < (u128)ones) << 6; /* by the low ones */
	ok |= ((__u32)(y << 1) == 6) << 7;
	ok |= (((y << 64) | y) != (y << 64)) << 8;
	ok |= (((y << 64) ^ (y << 64)) == 0) << 9;
	ok |= (!(x & 0)) << 10;
	ok |= (-m == 2) << 11;
	ok |= (~(u128)0 == ((u128)ones << 64 | ones)) << 12;
	if (m)
		ok |= 1 << 13;
	return ok;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: int128_ops:
// CHECK: exit
