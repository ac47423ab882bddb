// Tests: struct assignment copies every byte, copies are independent, copy
// through pointers, and struct members that are arrays.
// RUN: socket
// EXPECT: retval=0
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define CHECK(n, cond) do { if (!(cond)) return n; } while (0)

struct rec {
	__u32 id;
	__u8 name[13];
	__u64 stamp;
};

static __attribute__((noinline)) void dup(struct rec *dst, const struct rec *src)
{
	*dst = *src;
	dst->id++;
}

SEC("socket")
int struct_copy(struct __sk_buff *skb)
{
	volatile __u32 id = 41;
	struct rec a = { .id = id, .name = "bpfcc-struct", .stamp = 0x1122334455667788ULL };
	struct rec b, c;

	b = a;
	b.name[0] = 'B';
	CHECK(1, b.id == 41 && b.stamp == a.stamp && b.name[11] == 't');
	CHECK(2, a.name[0] == 'b' && b.name[0] == 'B');
	dup(&c, &b);
	CHECK(3, c.id == 42 && b.id == 41 && c.name[0] == 'B' && c.name[12] == 0);
	CHECK(4, c.stamp == 0x1122334455667788ULL);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// dup copies the 32 bytes in four 8-byte moves, then bumps dst->id.
// CHECK: dup: (section .text,
// CHECK-NEXT: r[[T:[0-9]]] = *(u64 *)(r2 + 0)
// CHECK-NEXT: *(u64 *)(r1 + 0) = r[[T]]
// CHECK-NEXT: r[[T:[0-9]]] = *(u64 *)(r2 + 8)
// CHECK-NEXT: *(u64 *)(r1 + 8) = r[[T]]
// CHECK-NEXT: r[[T:[0-9]]] = *(u64 *)(r2 + 16)
// CHECK-NEXT: *(u64 *)(r1 + 16) = r[[T]]
// CHECK-NEXT: r[[T:[0-9]]] = *(u64 *)(r2 + 24)
// CHECK-NEXT: *(u64 *)(r1 + 24) = r[[T]]
// CHECK-NEXT: r[[T:[0-9]]] = *(u32 *)(r1 + 0)
// CHECK-NEXT: w[[T]] += 1
// CHECK-NEXT: *(u32 *)(r1 + 0) = r[[T]]
// b = a: a at r10-40, b at r10-72 (the name bytes and stamp folded in).
// CHECK: struct_copy: (section socket,
// CHECK: r[[T:[0-9]]] = *(u64 *)(r10 - 40)
// CHECK-NEXT: *(u64 *)(r10 - 72) = r[[T]]
// CHECK-NEXT: r[[T:[0-9]]] = 8386676065534422371 ll
// CHECK-NEXT: *(u64 *)(r10 - 64) = r[[T]]
// CHECK-NEXT: *(u64 *)(r10 - 56) = 0
// CHECK-NEXT: r[[T:[0-9]]] = 1234605616436508552 ll
// CHECK-NEXT: *(u64 *)(r10 - 48) = r[[T]]
// CHECK-NEXT: r[[T:[0-9]]] = 66
// CHECK-NEXT: *(u8 *)(r10 - 68) = r[[T]]
// CHECK-NEXT: r[[T:[0-9]]] = *(u32 *)(r10 - 72)
// CHECK-NEXT: if w[[T]] != 41 goto
// CHECK: r[[T:[0-9]]] = *(u8 *)(r10 - 57)
// CHECK-NEXT: if w[[T]] != 116 goto
// CHECK: r1 += -104
// CHECK-NEXT: r2 = r10
// CHECK-NEXT: r2 += -72
// CHECK-NEXT: call dup
// CHECK-NEXT: r[[T:[0-9]]] = *(u32 *)(r10 - 104)
// CHECK-NEXT: if w[[T]] != 42 goto
// CHECK-NEXT: r[[T:[0-9]]] = *(u32 *)(r10 - 72)
// CHECK-NEXT: if w[[T]] != 41 goto
// CHECK-NEXT: r[[T:[0-9]]] = *(u8 *)(r10 - 100)
// CHECK-NEXT: if w[[T]] != 66 goto
// CHECK-NEXT: r[[T:[0-9]]] = *(u8 *)(r10 - 88)
// CHECK-NEXT: if w[[T]] != 0 goto
// CHECK-NEXT: r[[T:[0-9]]] = *(u64 *)(r10 - 80)
