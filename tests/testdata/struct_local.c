// Tests: local structs on the stack: member access, nested structs, arrays
// inside structs, pointers to members and padding-sensitive layouts.
// RUN: socket
// EXPECT: retval=0
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define CHECK(n, cond) do { if (!(cond)) return n; } while (0)

struct point { int x, y; };
struct rect { struct point a, b; __u8 tag; __u64 area; __u16 hist[3]; };

static __attribute__((noinline)) void fill(struct rect *r, int w, int h)
{
	r->b.x = r->a.x + w;
	r->b.y = r->a.y + h;
	r->area = (__u64)w * h;
	for (int i = 0; i < 3; i++)
		r->hist[i] = w * (i + 1);
}

SEC("socket")
int struct_local(struct __sk_buff *skb)
{
	volatile int w = 4, h = 3;
	struct rect r;
	struct point *pa = &r.a;
	int *py = &r.b.y;

	pa->x = 1;
	pa->y = 2;
	r.tag = 0xaa;
	fill(&r, w, h);
	CHECK(1, r.b.x == 5 && r.b.y == 5);
	CHECK(2, r.area == 12 && r.tag == 0xaa);
	CHECK(3, r.hist[0] == 4 && r.hist[1] == 8 && r.hist[2] == 12);
	*py += 10;
	CHECK(4, r.b.y == 15);
	CHECK(5, sizeof(struct rect) == 40);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// struct rect: a at 0, b at 8, tag at 16, area at 24, hist at 32 (40 bytes).
// CHECK: fill: (section .text,
// CHECK-NEXT: r[[T:[0-9]]] = *(u32 *)(r1 + 0)
// CHECK-NEXT: w[[T]] += w2
// CHECK-NEXT: *(u32 *)(r1 + 8) = r[[T]]
// CHECK-NEXT: r[[T:[0-9]]] = *(u32 *)(r1 + 4)
// CHECK-NEXT: w[[T]] += w3
// CHECK-NEXT: *(u32 *)(r1 + 12) = r[[T]]
// CHECK: *(u64 *)(r1 + 24) = r{{[0-9]}}
// CHECK: *(u16 *)(r1 + 32) = r{{[0-9]}}
// CHECK: *(u16 *)(r1 + 34) = r{{[0-9]}}
// CHECK: *(u16 *)(r1 + 36) = r{{[0-9]}}
// CHECK: struct_local: (section socket,
// CHECK: *(u32 *)(r10 - 48) = 1
// CHECK-NEXT: *(u32 *)(r10 - 44) = 2
// CHECK-NEXT: r[[T:[0-9]]] = 170
// CHECK-NEXT: *(u8 *)(r10 - 32) = r[[T]]
// CHECK-NEXT: r1 = r10
// CHECK-NEXT: r1 += -48
// CHECK: call fill
// CHECK-NEXT: r[[T:[0-9]]] = *(u32 *)(r10 - 40)
// CHECK-NEXT: if w[[T]] != 5 goto
// CHECK-NEXT: r[[T:[0-9]]] = *(u32 *)(r10 - 36)
// CHECK-NEXT: if w[[T]] != 5 goto
// CHECK-NEXT: r[[T:[0-9]]] = *(u64 *)(r10 - 24)
// CHECK-NEXT: if r[[T]] != 12 goto
// CHECK-NEXT: r[[T:[0-9]]] = *(u8 *)(r10 - 32)
// CHECK-NEXT: if w[[T]] != 170 goto
// CHECK-NEXT: r[[T:[0-9]]] = *(u16 *)(r10 - 16)
// CHECK-NEXT: if w[[T]] != 4 goto
// CHECK-NEXT: r[[T:[0-9]]] = *(u16 *)(r10 - 14)
// CHECK-NEXT: if w[[T]] != 8 goto
// CHECK-NEXT: r[[T:[0-9]]] = *(u16 *)(r10 - 12)
// CHECK-NEXT: if w[[T]] != 12 goto
// CHECK-NEXT: r[[T:[0-9]]] = 15
// CHECK-NEXT: *(u32 *)(r10 - 36) = r[[T]]
// CHECK-NOT: r0 = 5
