// Tests: an enum without negative enumerators has an unsigned
// representation (as with clang and gcc) while its enumeration constants
// stay int: e < 0 is false for e = 0xffffffff, -1 / E1_B is 0.
// RUN: socket
// EXPECT: retval=0
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define CHECK(n, cond) do { if (!(cond)) return n; } while (0)

enum E1 { E1_A, E1_B = 7 };
enum E2 { E2_NEG = -1, E2_POS = 3 };

SEC("socket")
int enum_unsigned(struct __sk_buff *skb)
{
	volatile enum E1 e = 0xffffffffu;
	volatile enum E2 s = E2_NEG;
	volatile int m = -1;
	long x = e;

	CHECK(1, x == 4294967295L);
	CHECK(2, !(e < 0));
	CHECK(3, m / E1_B == 0);
	CHECK(4, m < E1_A);
	CHECK(5, (short)(((signed char)-1) / E1_B) == 0);
	CHECK(6, s < 0 && (long)s == -1);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: r[[E:[0-9]]] = *(u32 *)(r10 - 4)
// CHECK-NEXT: w[[C:[0-9]]] = -1
// CHECK-NEXT: if r[[E]] != r[[C]] goto
// CHECK: r[[M:[0-9]]] = *(u32 *)(r10 - 12)
// CHECK-NEXT: r[[S:[0-9]]] = r[[M]]
// CHECK-NEXT: w[[S]] s>>= 31
// CHECK-NEXT: w[[M]] ^= w[[S]]
// CHECK-NEXT: w[[M]] -= w[[S]]
// CHECK-NEXT: w[[M]] /= 7
// CHECK: if w[[M]] != 0 goto
// CHECK-NEXT: r[[M:[0-9]]] = *(u32 *)(r10 - 12)
// CHECK-NEXT: if w[[M]] s>= 0 goto
// CHECK-NEXT: r[[S:[0-9]]] = *(u32 *)(r10 - 8)
// CHECK-NEXT: if w[[S]] s>= 0 goto
// CHECK-NEXT: r[[S:[0-9]]] = *(u32 *)(r10 - 8)
// CHECK-NEXT: r[[S]] <<= 32
// CHECK-NEXT: r[[S]] s>>= 32
// CHECK-NEXT: if r[[S]] != -1 goto
// CHECK-NOT: r0 = 2
// CHECK-NOT: r0 = 5
