// Tests: __attribute__((noinline)) functions become bpf-to-bpf calls: five
// arguments, 64-bit arguments and results, calls in loops, a call chain, and
// callee-saved registers live across calls.
// RUN: socket
// EXPECT: retval=0
// ASM: "call"
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define CHECK(n, cond) do { if (!(cond)) return n; } while (0)

static __attribute__((noinline)) __u64 mix5(__u64 a, __u32 b, __u16 c, __u8 d, __s64 e)
{
	return a * 1000000 + b * 10000 + c * 100 + d * 10 + e;
}

static __attribute__((noinline)) int leaf(int x) { return x + 1; }
static __attribute__((noinline)) int mid(int x) { return leaf(x) * 2; }
static __attribute__((noinline)) int top(int x) { return mid(x) + leaf(x); }

SEC("socket")
int noinline_calls(struct __sk_buff *skb)
{
	volatile int base = 7;
	int keep = base * 3; /* live across every call below */
	int sum = 0;

	CHECK(1, mix5(1, 2, 3, 4, -5) == 1020335);
	CHECK(2, mix5(0x100000000ULL, 0, 0, 0, 0) == 4294967296000000ULL);
	for (int i = 0; i < 10; i++)
		sum += leaf(i);
	CHECK(3, sum == 55);
	CHECK(4, top(base) == 24);
	CHECK(5, keep == 21);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: mix5: (section .text,
// CHECK: leaf: (section .text,
// CHECK: mid: (section .text,
// CHECK: call leaf
// CHECK: top: (section .text,
// CHECK: call mid
// CHECK: noinline_calls: (section socket,
// CHECK: call mix5
// CHECK: r1 = 4294967296 ll
// CHECK: call mix5
// CHECK: call leaf
