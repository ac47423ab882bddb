// Tests: 64-bit constants that do not fit a 32-bit immediate are loaded
// with ld_imm64, and 64-bit multiply, add and compare on them.
// RUN: socket
// EXPECT: retval=0
// ASM: "ll"
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define CHECK(n, cond) do { if (!(cond)) return n; } while (0)

SEC("socket")
int u64_constants(struct __sk_buff *skb)
{
	volatile __u64 x = 3;
	__u64 fnv = 0xcbf29ce484222325ULL; /* FNV-1a 64 */
	const __u8 msg[3] = { 'a', 'b', 'c' };

	CHECK(1, x * 0x100000001ULL == 0x300000003ULL);
	CHECK(2, x + 0x7fffffff00000000ULL == 0x7fffffff00000003ULL);
	for (int i = 0; i < 3; i++) {
		fnv ^= msg[i];
		fnv *= 0x100000001b3ULL;
	}
	CHECK(3, fnv == 0xe71fa2190541574bULL);
	CHECK(4, (x << 62) == 0xc000000000000000ULL);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: = 4294967297 ll
// CHECK-NEXT: r{{[0-9]}} *= r{{[0-9]}}
// CHECK: [[C:r[0-9]]] = 12884901891 ll
// CHECK-NEXT: if r{{[0-9]}} != [[C]] goto
// CHECK: = 9223372032559808512 ll
// CHECK: = -4611686018427387904 ll
