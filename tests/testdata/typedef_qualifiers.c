// Tests: typedefs of scalars, structs and pointers; const locals and
// parameters; volatile loads that must not be merged.
// RUN: socket
// EXPECT: retval=0
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define CHECK(n, cond) do { if (!(cond)) return n; } while (0)

typedef unsigned int uint;
typedef uint counter_t;
typedef struct { counter_t hits; short delta; } stat_t;
typedef stat_t *stat_ptr;

static __attribute__((noinline)) int sum(const stat_t *s, const int k)
{
	return s->hits * k + s->delta;
}

SEC("socket")
int typedef_qualifiers(struct __sk_buff *skb)
{
	stat_t st = { .hits = 3, .delta = -1 };
	stat_ptr p = &st;
	const counter_t base = 10;
	volatile int v = 1;
	int a, b;

	p->hits += base;
	CHECK(1, st.hits == 13);
	CHECK(2, sum(p, 2) == 25);
	a = v;
	v = 2;
	b = v;
	CHECK(3, a == 1 && b == 2);
	CHECK(4, sizeof(counter_t) == 4 && sizeof(stat_t) == 8);
	CHECK(5, (counter_t)-1 == 0xffffffffu);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: sum: (section .text,
// CHECK-NEXT: r0 = *(u32 *)(r1 + 0)
// CHECK-NEXT: w0 *= w2
// CHECK-NEXT: r[[D:[0-9]]] = *(u16 *)(r1 + 4)
// CHECK-NEXT: r[[D]] <<= 48
// CHECK-NEXT: r[[D]] s>>= 48
// CHECK-NEXT: w0 += w[[D]]
// CHECK: typedef_qualifiers: (section socket,
// CHECK: r[[H:[0-9]]] = *(u32 *)(r10 - 8)
// CHECK-NEXT: w[[H]] += 10
// CHECK-NEXT: *(u32 *)(r10 - 8) = r[[H]]
// CHECK: r2 = 2
// CHECK-NEXT: call sum
// CHECK-NEXT: if w0 != 25 goto
// The volatile v: read, written, read again (not merged).
// CHECK-NEXT: r[[A:[0-9]]] = *(u32 *)(r10 - 12)
// CHECK-NEXT: r[[T:[0-9]]] = 2
// CHECK-NEXT: *(u32 *)(r10 - 12) = r[[T]]
// CHECK-NEXT: r[[B:[0-9]]] = *(u32 *)(r10 - 12)
// CHECK-NEXT: if w[[A]] != 1 goto
// CHECK-NEXT: if w[[B]] == 2 goto
// CHECK-NOT: r0 = 4
// CHECK-NOT: r0 = 5
