// Tests: unions on the stack: writing one member and reading another
// (little-endian layout), union size, and a tagged union in a struct.
// RUN: socket
// EXPECT: retval=0
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define CHECK(n, cond) do { if (!(cond)) return n; } while (0)

union word {
	__u64 q;
	__u32 w[2];
	__u16 h[4];
	__u8 b[8];
};

struct value {
	int kind;
	union { __s64 i; __u8 bytes[4]; } u;
};

SEC("socket")
int union_local(struct __sk_buff *skb)
{
	volatile __u64 seed = 0x0102030405060708ULL;
	union word w;
	struct value v;

	w.q = seed;
	CHECK(1, w.b[0] == 0x08 && w.b[7] == 0x01);
	CHECK(2, w.h[1] == 0x0506 && w.w[1] == 0x01020304);
	w.b[0] = 0xff;
	CHECK(3, w.q == 0x01020304050607ffULL);
	CHECK(4, sizeof(union word) == 8 && sizeof(struct value) == 16);
	v.kind = 1;
	v.u.i = -2;
	CHECK(5, v.u.bytes[0] == 0xfe && v.u.bytes[3] == 0xff);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: r[[S:[0-9]]] = *(u64 *)(r10 - 8)
// CHECK-NEXT: *(u64 *)(r10 - 16) = r[[S]]
// CHECK-NEXT: r[[T:[0-9]]] = *(u8 *)(r10 - 16)
// CHECK-NEXT: if w[[T]] != 8 goto
// CHECK-NEXT: r[[T:[0-9]]] = *(u8 *)(r10 - 9)
// CHECK-NEXT: if w[[T]] != 1 goto
// CHECK-NEXT: r[[T:[0-9]]] = *(u16 *)(r10 - 14)
// CHECK-NEXT: if w[[T]] != 1286 goto
// CHECK-NEXT: r[[T:[0-9]]] = *(u32 *)(r10 - 12)
// CHECK-NEXT: if w[[T]] != 16909060 goto
// CHECK-NEXT: r[[T:[0-9]]] = 255
// CHECK-NEXT: *(u8 *)(r10 - 16) = r[[T]]
// CHECK-NEXT: r[[Q:[0-9]]] = *(u64 *)(r10 - 16)
// CHECK-NEXT: r[[C:[0-9]]] = 72623859790383103 ll
// CHECK-NEXT: if r[[Q]] == r[[C]] goto
// CHECK-NOT: r0 = 4
// CHECK-NOT: r0 = 5
