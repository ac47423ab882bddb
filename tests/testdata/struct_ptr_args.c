// Tests: structs passed to and filled in by bpf-to-bpf calls through
// pointers into the caller's stack, and a callee returning a status.
// RUN: socket
// EXPECT: retval=0
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define CHECK(n, cond) do { if (!(cond)) return n; } while (0)

struct stats { __u64 min, max, sum; __u32 count; };

static __attribute__((noinline)) void add(struct stats *s, __u64 v)
{
	if (s->count == 0 || v < s->min)
		s->min = v;
	if (v > s->max)
		s->max = v;
	s->sum += v;
	s->count++;
}

static __attribute__((noinline)) int mean(const struct stats *s, __u64 *out)
{
	if (!s->count)
		return -1;
	*out = s->sum / s->count;
	return 0;
}

SEC("socket")
int struct_ptr_args(struct __sk_buff *skb)
{
	struct stats s = {};
	__u64 m = 0;

	CHECK(1, mean(&s, &m) == -1);
	for (__u64 v = 3; v < 30; v += 6)
		add(&s, v);
	CHECK(2, s.count == 5 && s.min == 3 && s.max == 27 && s.sum == 75);
	CHECK(3, mean(&s, &m) == 0 && m == 15);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: add: (section .text,
// CHECK-NEXT: r[[C:[0-9]]] = *(u32 *)(r1 + 24)
// CHECK-NEXT: if w[[C]] != 0 goto
// CHECK-NEXT: *(u64 *)(r1 + 0) = r2
// CHECK: *(u64 *)(r1 + 8) = r2
// CHECK: *(u64 *)(r1 + 16) = r{{[0-9]}}
// CHECK: *(u32 *)(r1 + 24) = r{{[0-9]}}
// CHECK: mean: (section .text,
// CHECK-NEXT: r[[C:[0-9]]] = *(u32 *)(r1 + 24)
// CHECK-NEXT: if w[[C]] == 0 goto
// CHECK-NEXT: r[[S:[0-9]]] = *(u64 *)(r1 + 16)
// CHECK-NEXT: r[[S]] /= r[[C]]
// CHECK-NEXT: *(u64 *)(r2 + 0) = r[[S]]
// CHECK-NEXT: r0 = 0
// CHECK-NEXT: exit
// CHECK-NEXT: r0 = -1
// CHECK: struct_ptr_args: (section socket,
// CHECK: r1 = r10
// CHECK-NEXT: r1 += -32
// CHECK-NEXT: r2 = r10
// CHECK-NEXT: r2 += -40
// CHECK-NEXT: call mean
// CHECK-NEXT: if w0 != -1 goto
// CHECK: r1 += -32
// CHECK-NEXT: r2 = 3
// CHECK-NEXT: call add
// CHECK: r1 += -32
// CHECK-NEXT: r2 = 9
// CHECK-NEXT: call add
// CHECK: r1 += -32
// CHECK-NEXT: r2 = 15
// CHECK-NEXT: call add
// CHECK: r1 += -32
// CHECK-NEXT: r2 = 21
// CHECK-NEXT: call add
// CHECK: r1 += -32
// CHECK-NEXT: r2 = 27
// CHECK-NEXT: call add
// CHECK-NEXT: r[[T:[0-9]]] = *(u32 *)(r10 - 8)
// CHECK-NEXT: if w[[T]] != 5 goto
// CHECK: r1 += -32
// CHECK-NEXT: r2 = r10
// CHECK-NEXT: r2 += -40
// CHECK-NEXT: call mean
// CHECK-NEXT: if w0 != 0 goto
// CHECK-NEXT: r[[T:[0-9]]] = *(u64 *)(r10 - 40)
// CHECK-NEXT: if r[[T]] != 15 goto
