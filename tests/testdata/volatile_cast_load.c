// Tests: a load through a cast to a pointer to volatile (READ_ONCE's
// `*(volatile T *)&x`, or `->` through such a cast) is volatile: two reads
// of one global stay two loads (cc/v4 leaves the qualifier off the cast's
// pointee type; lowering reads it from the type name).
// RUN: socket
// EXPECT: retval=0
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

__u32 ticks;
struct pair {
	__u32 a, b;
} pair;

SEC("socket")
int volatile_cast_load(struct __sk_buff *skb)
{
	if (*(volatile __u32 *)&ticks != *(volatile __u32 *)&ticks)
		return 1;
	if (((volatile struct pair *)&pair)->b != ((volatile struct pair *)&pair)->b)
		return 2;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: volatile_cast_load: (section socket,
// CHECK: r[[A:[0-9]]] = *(u32 *)(r{{[0-9]}} + 0)
// CHECK-NEXT: r[[B:[0-9]]] = *(u32 *)(r{{[0-9]}} + 0)
// CHECK-NEXT: if w[[A]] != w[[B]] goto
// CHECK: r[[C:[0-9]]] = *(u32 *)(r{{[0-9]}} + 4)
// CHECK-NEXT: r[[D:[0-9]]] = *(u32 *)(r{{[0-9]}} + 4)
// CHECK-NEXT: if w[[C]] {{[!=]=}} w[[D]] goto
