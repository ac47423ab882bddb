// Tests: __builtin_memcpy, __builtin_memset and __builtin_memcmp of constant
// sizes on stack objects (bpfcc expands them into loads and stores).
// RUN: socket
// EXPECT: retval=0
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define CHECK(n, cond) do { if (!(cond)) return n; } while (0)

struct blob { __u8 b[24]; };

SEC("socket")
int builtin_mem(struct __sk_buff *skb)
{
	volatile __u8 fill = 0x5a;
	struct blob a, b;
	__u8 small[3];
	__u8 other[3] = { 1, 2, 4 };

	__builtin_memset(&a, fill, sizeof(a));
	CHECK(1, a.b[0] == 0x5a && a.b[23] == 0x5a);
	__builtin_memset(&a.b[4], 0, 8);
	CHECK(2, a.b[3] == 0x5a && a.b[4] == 0 && a.b[11] == 0 && a.b[12] == 0x5a);
	__builtin_memcpy(&b, &a, sizeof(b));
	CHECK(3, __builtin_memcmp(&a, &b, sizeof(a)) == 0);
	b.b[20] = 0;
	CHECK(4, __builtin_memcmp(&a, &b, sizeof(a)) != 0);
	__builtin_memcpy(small, other, 3);
	CHECK(5, small[0] == 1 && small[1] == 2 && small[2] == 4);
	small[2] = 3;
	CHECK(6, __builtin_memcmp(small, other, 2) == 0 && __builtin_memcmp(small, other, 3) != 0);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: builtin_mem: (section socket,
// CHECK-NOT: call
// CHECK: r{{[0-9]}} = 72340172838076673 ll
// CHECK: r{{[0-9]}} &= 255
// CHECK: w{{[0-9]}} -= w{{[0-9]}}
