// Tests: a bit-field of a packed struct whose bits straddle 9 bytes (61
// bits after 4, 60 signed bits after 7) is laid out at the next free bit as
// clang does, described in BTF with its declared width, and read and
// written in two pieces without touching its neighbours.
// RUN: socket
// EXPECT: retval=0
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct wide {
	__u64 lo : 4;
	__u64 big : 61;
	__u32 after;
	__u8 pad : 7;
	__s64 sbig : 60;
	__u8 tail;
} __attribute__((packed));

struct wide gw = { .lo = 5, .big = 0x1234567890abcdefULL, .after = 77, .pad = 3, .sbig = -0x123456789abcLL, .tail = 9 };

SEC("socket")
int packed_bitfield_9bytes(struct __sk_buff *skb)
{
	volatile struct wide w = { .lo = 0xf, .big = 0x1fffffffffffffffULL, .after = 0xdeadbeef, .pad = 0x7f, .sbig = -1, .tail = 0xaa };

	if (sizeof(struct wide) != 23)
		return 1;
	if (w.lo != 0xf || w.big != 0x1fffffffffffffffULL || w.after != 0xdeadbeef)
		return 2;
	w.big = 0x1000000000000001ULL;
	if (w.lo != 0xf || w.big != 0x1000000000000001ULL || w.after != 0xdeadbeef)
		return 3;
	if (w.pad != 0x7f || w.sbig != -1 || w.tail != 0xaa)
		return 4;
	w.sbig = -2;
	if (w.pad != 0x7f || w.sbig != -2 || w.tail != 0xaa)
		return 5;
	w.sbig = 0x7ffffffffffffffLL;
	if (w.sbig != 0x7ffffffffffffffLL || w.tail != 0xaa || w.big >> 60 != 1)
		return 6;
	if (gw.lo != 5 || gw.big != 0x1234567890abcdefULL || gw.after != 77)
		return 7;
	if (gw.pad != 3 || gw.sbig != -0x123456789abcLL || gw.tail != 9)
		return 8;
	gw.big = 3;
	if (gw.lo != 5 || gw.big != 3 || gw.after != 77)
		return 9;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: if w{{[0-9]}} != 15 goto
// CHECK-NEXT: r[[L:[0-9]]] = *(u64 *)(r10 - 24)
// CHECK-NEXT: r[[H:[0-9]]] = *(u8 *)(r10 - 16)
// CHECK-NEXT: r[[L]] >>= 4
// CHECK-NEXT: r[[H]] <<= 60
// CHECK-NEXT: r[[L]] |= r[[H]]
// CHECK-NEXT: r[[L]] <<= 3
// CHECK-NEXT: r[[L]] >>= 3
// CHECK-NEXT: r[[C:[0-9]]] = 2305843009213693951 ll
// CHECK-NEXT: if r[[L]] != r[[C]] goto
// CHECK: r[[G:[0-9]]] = gw ll
// CHECK-NEXT: r[[K:[0-9]]] = *(u8 *)(r[[G]] + 0)
// CHECK-NEXT: r[[K]] <<= 60
// CHECK-NEXT: r[[K]] >>= 60
// CHECK-NEXT: if w[[K]] != 5 goto
// CHECK-NEXT: r[[L:[0-9]]] = *(u64 *)(r[[G]] + 0)
// CHECK-NEXT: r[[H:[0-9]]] = *(u8 *)(r[[G]] + 8)
// CHECK: r[[B:[0-9]]] <<= 3
// CHECK-NEXT: r[[B]] >>= 3
// CHECK-NEXT: r[[C:[0-9]]] = 1311768467294899695 ll
// CHECK-NEXT: if r[[B]] != r[[C]] goto
// CHECK-NEXT: r[[A:[0-9]]] = *(u32 *)(r[[G]] + 9)
// CHECK-NEXT: if w[[A]] != 77 goto
// CHECK-NEXT: r[[P:[0-9]]] = *(u8 *)(r[[G]] + 13)
// CHECK-NEXT: r[[P]] <<= 57
// CHECK-NEXT: r[[P]] >>= 57
// CHECK-NEXT: if w[[P]] != 3 goto
// CHECK-NEXT: r[[G:[0-9]]] = gw ll
// CHECK-NEXT: r[[S:[0-9]]] = *(u64 *)(r[[G]] + 13)
// CHECK-NEXT: r[[T:[0-9]]] = *(u8 *)(r[[G]] + 21)
// CHECK-NEXT: r[[S]] >>= 7
// CHECK-NEXT: r[[T]] <<= 57
// CHECK-NEXT: r[[S]] |= r[[T]]
// CHECK-NEXT: r[[S]] <<= 4
// CHECK-NEXT: r[[S]] s>>= 4
// CHECK-NEXT: r[[C:[0-9]]] = -20015998343868 ll
// CHECK-NEXT: if r[[S]] != r[[C]] goto
// CHECK-NEXT: r[[T:[0-9]]] = *(u8 *)(r[[G]] + 22)
// CHECK-NEXT: if w[[T]] != 9 goto
// CHECK-NEXT: r[[L]] &= 15
// CHECK-NEXT: r[[H]] &= -2
// CHECK-NEXT: r[[L]] |= 48
// CHECK-NEXT: *(u64 *)(r[[G]] + 0) = r[[L]]
// CHECK-NEXT: *(u8 *)(r[[G]] + 8) = r[[H]]
// CHECK-NOT: r0 = 1
