// Tests: & | ^ ~ on 8-, 16-, 32- and 64-bit operands, and masks with
// constants that need a 64-bit immediate.
// RUN: socket
// EXPECT: retval=0
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define CHECK(n, cond) do { if (!(cond)) return n; } while (0)

SEC("socket")
int bitwise_ops(struct __sk_buff *skb)
{
	volatile __u32 a = 0xf0f0f0f0u, b = 0x0ff00ff0u;
	volatile __u64 x = 0xff00ff00ff00ff00ULL;
	volatile __u8 c = 0xa5;
	volatile int s = -16;

	CHECK(1, (a & b) == 0x00f000f0u);
	CHECK(2, (a | b) == 0xfff0fff0u);
	CHECK(3, (a ^ b) == 0xff00ff00u);
	CHECK(4, ~a == 0x0f0f0f0fu);
	CHECK(5, (x & 0x0000ffff0000ffffULL) == 0x0000ff000000ff00ULL);
	CHECK(6, (x | 0xffULL) == 0xff00ff00ff00ffffULL);
	CHECK(7, (x ^ x) == 0 && ~x == 0x00ff00ff00ff00ffULL);
	CHECK(8, (__u8)~c == 0x5a);
	CHECK(9, (c & 0x0f) == 5 && (c | 0x0f) == 0xaf);
	CHECK(10, (s & 0xff) == 0xf0 && (s | 1) == -15 && ~s == 15);
	CHECK(11, ((__u64)a << 32 | b) == 0xf0f0f0f00ff00ff0ULL);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: w{{[0-9]}} |= w{{[0-9]}}
// CHECK: w{{[0-9]}} ^= w{{[0-9]}}
// CHECK: r{{[0-9]}} &= r{{[0-9]}}
// CHECK: r{{[0-9]}} = 71777214294589695 ll
