// Tests: truncation when storing to narrower types and when casting,
// including stores into struct fields and arrays on the stack.
// RUN: socket
// EXPECT: retval=0
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define CHECK(n, cond) do { if (!(cond)) return n; } while (0)

struct narrow {
	__u8 b;
	__u16 h;
	__u32 w;
	__s8 sb;
};

SEC("socket")
int truncation(struct __sk_buff *skb)
{
	volatile __u64 big = 0x1122334455667788ULL;
	volatile int k300 = 300, km1 = -1;
	volatile struct narrow n;
	__u8 arr[4];
	__u64 v = big;

	n.b = v;
	n.h = v;
	n.w = v;
	n.sb = v;
	CHECK(1, n.b == 0x88);
	CHECK(2, n.h == 0x7788);
	CHECK(3, n.w == 0x55667788);
	CHECK(4, n.sb == (__s8)0x88 && n.sb < 0);
	CHECK(5, (__u8)v == 0x88 && (__u16)v == 0x7788 && (__u32)v == 0x55667788u);
	arr[0] = v >> 8;
	arr[1] = v >> 16;
	arr[2] = k300;
	arr[3] = km1;
	CHECK(6, arr[0] == 0x77 && arr[1] == 0x66);
	CHECK(7, arr[2] == 44 && arr[3] == 255);
	CHECK(8, (int)(__s16)(v >> 16) == 0x5566);
	CHECK(9, (__s16)0x8000 == -32768);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// Narrow stores truncate: the value is stored as it is (an extension
// only a narrower store reads is dropped), the comparisons of the casts
// truncate it themselves.
// CHECK: r[[V:[0-9]]] = *(u64 *)(r10 - 8)
// CHECK-NEXT: *(u8 *)(r10 - 32) = r[[V]]
// CHECK-NEXT: *(u16 *)(r10 - 30) = r[[V]]
// CHECK-NEXT: *(u32 *)(r10 - 28) = r[[V]]
// CHECK-NEXT: *(u8 *)(r10 - 24) = r[[V]]
// CHECK-NEXT: r[[T:[0-9]]] = *(u8 *)(r10 - 32)
// CHECK-NEXT: if w[[T]] != 136 goto
// CHECK-NEXT: r[[T:[0-9]]] = *(u16 *)(r10 - 30)
// CHECK-NEXT: if w[[T]] != 30600 goto
// CHECK-NEXT: r[[T:[0-9]]] = *(u32 *)(r10 - 28)
// CHECK-NEXT: if w[[T]] != 1432778632 goto
// CHECK-NEXT: r[[T:[0-9]]] = *(u8 *)(r10 - 24)
// CHECK-NEXT: if w[[T]] != 136 goto
// CHECK-NEXT: r[[T:[0-9]]] = *(u8 *)(r10 - 24)
// CHECK-NEXT: r[[T]] <<= 56
// CHECK-NEXT: r[[T]] s>>= 56
// CHECK-NEXT: if w[[T]] s>= 0 goto
// CHECK-NEXT: r[[B:[0-9]]] = r[[V]]
// CHECK-NEXT: r[[B]] &= 255
// CHECK-NEXT: if w[[B]] != 136 goto
// CHECK: r[[K:[0-9]]] = *(u32 *)(r10 - 12)
// CHECK-NEXT: r[[M:[0-9]]] = *(u32 *)(r10 - 16)
// CHECK: if w{{[0-9]}} != 119 goto
// CHECK: if w{{[0-9]}} != 102 goto
// CHECK: r[[K]] &= 255
// CHECK: if w[[K]] != 44 goto
// CHECK: r[[M]] &= 255
// CHECK: if w[[M]] != 255 goto
// CHECK-NEXT: r[[S:[0-9]]] <<= 48
// CHECK-NEXT: r[[S]] s>>= 48
// CHECK-NEXT: if w[[S]] == 21862 goto
// CHECK-NOT: r0 = 9
