// Tests: every compound assignment operator, on int, unsigned, 64-bit and
// narrow types (where the result is truncated on the store), and through a
// pointer.
// RUN: socket
// CLANG-CPU: v4
// EXPECT: retval=0
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define CHECK(n, cond) do { if (!(cond)) return n; } while (0)

SEC("socket")
int compound_assign(struct __sk_buff *skb)
{
	volatile int k = 3;
	int x = 10;
	unsigned int u = 100;
	__s64 q = -100;
	__u8 b = 250;
	__s16 h = 32767;
	int arr[2] = { 1, 2 };
	int *p = &arr[1];

	x += k;  CHECK(1, x == 13);
	x -= 20; CHECK(2, x == -7);
	x *= k;  CHECK(3, x == -21);
	x /= 4;  CHECK(4, x == -5);
	x %= k;  CHECK(5, x == -2);
	x <<= 4; CHECK(6, x == -32);
	x >>= 2; CHECK(7, x == -8);
	x &= 0xff; CHECK(8, x == 0xf8);
	x |= 0x100; CHECK(9, x == 0x1f8);
	x ^= 0x1ff; CHECK(10, x == 7);
	u -= 101; CHECK(11, u == 0xffffffffu);
	u >>= k;  CHECK(12, u == 0x1fffffffu);
	q *= k;   CHECK(13, q == -300);
	q >>= 1;  CHECK(14, q == -150);
	q /= k;   CHECK(15, q == -50);
	b += 10;  CHECK(16, b == 4);
	b *= 100; CHECK(17, b == 144);
	h += 1;   CHECK(18, h == -32768);
	*p += 5;  CHECK(19, arr[1] == 7);
	*p <<= k; CHECK(20, arr[1] == 56);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: r[[K:[0-9]]] = *(u32 *)(r10 - 4)
// CHECK-NEXT: w[[K]] += 10
// CHECK-NEXT: if w[[K]] != 13 goto
// CHECK: w[[X:[0-9]]] *= -7
// CHECK-NEXT: if w[[X]] != -21 goto
// CHECK: w[[S:[0-9]]] s>>= 31
// CHECK: r[[R:[0-9]]] = 5
// CHECK-NEXT: w[[R]] %= w{{[0-9]}}
// CHECK-NEXT: w[[R]] ^= -1
// CHECK-NEXT: w[[R]] -= -1
// CHECK-NEXT: if w[[R]] != -2 goto
// CHECK: r[[K:[0-9]]] = *(u32 *)(r10 - 4)
// CHECK-NEXT: w[[U:[0-9]]] = -1
// CHECK-NEXT: w[[U]] >>= w[[K]]
// CHECK-NEXT: if w[[U]] != 536870911 goto
// CHECK: r[[Q:[0-9]]] <<= 32
// CHECK-NEXT: r[[Q]] s>>= 32
// CHECK-NEXT: r[[Q]] *= -100
// CHECK-NEXT: if r[[Q]] != -300 goto
// CHECK: r[[D:[0-9]]] = 150
// CHECK-NEXT: r[[D]] /= r{{[0-9]}}
// CHECK: if r[[D]] != -50 goto
// CHECK: r[[P:[0-9]]] = 7
// CHECK-NEXT: w[[P]] <<= w{{[0-9]}}
// CHECK-NEXT: if w[[P]] != 56 goto
// CHECK-NOT: r0 = 16
// CHECK-NOT: r0 = 17
// CHECK-NOT: r0 = 18
