// Tests: structs passed and returned by value. bpfcc passes a pointer to a
// copy made for the call and returns through a hidden result pointer, so
// the callee may change its copy without the caller seeing it; inlining
// usually leaves no trace of either (the listing has no call).
// RUN: socket
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

static __always_inline struct key flip(struct key k)
{
	struct key r = { k.daddr, k.saddr, k.dport, k.sport, k.proto };

	k.saddr = 0; /* the caller's k is not touched */
	return r;
}

static __always_inline struct pair mk(__u64 x)
{
	struct pair p = { x, x * 2 };

	return p;
}

static __always_inline __u64 sum(struct pair p)
{
	p.a += 1;
	return p.a + p.b;
}

SEC("socket")
int struct_by_value(struct __sk_buff *skb)
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

// CHECK-NOT: call
// CHECK: r[[X:[0-9]]] = *(u32 *)(r10 - 4)
// CHECK-NEXT: r[[B:[0-9]]] = r[[X]]
// CHECK-NEXT: r[[B]] <<= 1
// CHECK-NEXT: r[[A:[0-9]]] = r[[X]]
// CHECK-NEXT: r[[A]] += 1
// CHECK-NEXT: r[[A]] += r[[B]]
// CHECK-NEXT: if r[[A]] != 181 goto
// CHECK-NEXT: if r[[X]] == 60 goto
// CHECK-NOT: call
// CHECK-NOT: r0 = 1
// CHECK-NOT: r0 = 2
