// Tests: structs passed and returned by value to and from functions that
// stay bpf-to-bpf calls: a pointer to a copy made for the call, a hidden
// first argument for the result, and BTF prototypes that say so. clang
// rejects these; struct_by_value.c is the inlined form both compile.
// RUN: socket
// CLANG-REJECTS: aggregate returns are not supported
// EXPECT: retval=0
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct key {
	__u32 saddr, daddr;
	__u16 sport, dport;
	__u8 proto;
};

struct pair {
	__u64 a, b;
};

static __attribute__((noinline)) struct key flip(struct key k)
{
	struct key r = { k.daddr, k.saddr, k.dport, k.sport, k.proto };

	k.saddr = 0; /* the caller's k is not touched */
	return r;
}

static __attribute__((noinline)) struct pair mk(__u64 x)
{
	struct pair p = { x, x * 2 };

	return p;
}

static __attribute__((noinline)) __u64 sum(struct pair p)
{
	p.a += 1;
	return p.a + p.b;
}

SEC("socket")
int struct_by_value_calls(struct __sk_buff *skb)
{
	volatile __u32 len = 60;
	struct key k = { 1, 2, 3, 4, 6 };
	struct key f = flip(k);
	struct pair p = mk(len);

	if (f.saddr != 2 || f.daddr != 1 || f.sport != 4 || f.dport != 3 || f.proto != 6)
		return 1;
	if (k.saddr != 1)
		return 2;
	if (sum(p) != 181 || p.a != 60)
		return 3;
	if (flip(flip(k)).dport != 4)
		return 4;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// flip: r1 is the hidden result pointer, r2 the pointer to the copy.
// CHECK: flip: (section .text,
// CHECK: r[[D:[0-9]]] = *(u32 *)(r2 + 4)
// CHECK-NEXT: r[[S:[0-9]]] = *(u32 *)(r2 + 0)
// CHECK: *(u32 *)(r2 + 0) = 0
// CHECK-NEXT: *(u32 *)(r1 + 0) = r[[D]]
// CHECK-NEXT: *(u32 *)(r1 + 4) = r[[S]]
// CHECK: mk: (section .text,
// CHECK: *(u64 *)(r1 + 0) = r2
// CHECK-NEXT: *(u64 *)(r1 + 8) = r{{[0-9]}}
// CHECK: sum: (section .text,
// CHECK-NEXT: r[[A:[0-9]]] = *(u64 *)(r1 + 0)
// CHECK-NEXT: r[[A]] += 1
// CHECK-NEXT: *(u64 *)(r1 + 0) = r[[A]]
// CHECK: struct_by_value_calls: (section socket,
// CHECK: *(u32 *)(r10 - 40) = r{{[0-9]}}
// CHECK: r2 = r10
// CHECK-NEXT: r2 += -40
// CHECK-NEXT: r1 = r10
// CHECK-NEXT: r1 += -56
// CHECK-NEXT: call flip
// CHECK-NEXT: r{{[0-9]}} = *(u32 *)(r10 - 56)
// CHECK: r1 = r10
// CHECK-NEXT: r1 += -72
// CHECK-NEXT: call mk
// CHECK: *(u64 *)(r10 - 88) = r[[PA:[0-9]]]
// CHECK-NEXT: *(u64 *)(r10 - 80) = r{{[0-9]}}
// CHECK-NEXT: r1 = r10
// CHECK-NEXT: r1 += -88
// CHECK-NEXT: call sum
// CHECK-NEXT: if r0 != 181 goto
// CHECK-NEXT: if r[[PA]] != 60 goto
// CHECK: r2 += -88
// CHECK-NEXT: r1 = r10
// CHECK-NEXT: r1 += -104
// CHECK-NEXT: call flip
// CHECK: r2 += -120
// CHECK-NEXT: r1 = r10
// CHECK-NEXT: r1 += -136
// CHECK-NEXT: call flip
// CHECK-NEXT: r[[P:[0-9]]] = *(u16 *)(r10 - 126)
// CHECK-NEXT: if w[[P]] == 4 goto
// CHECK-NOT: r0 = 2
