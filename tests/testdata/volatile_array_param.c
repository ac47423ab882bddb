// Tests: a parameter declared `volatile T a[]` is a pointer to volatile
// elements, not a volatile pointer: each a[0] is a load of the element, and
// a itself is not kept in a stack slot, stored and reloaded at each use.
// RUN: socket
// EXPECT: retval=0
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

__u32 ring[4];

static __always_inline int changed(volatile __u32 a[])
{
	__u32 first = a[0];

	return first != a[0];
}

SEC("socket")
int volatile_array_param(struct __sk_buff *skb)
{
	return changed(ring);
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: volatile_array_param: (section socket,
// CHECK-NOT: (r10
// CHECK: r[[A:[0-9]]] = *(u32 *)(r[[P:[0-9]]] + 0)
// CHECK-NEXT: r[[B:[0-9]]] = *(u32 *)(r[[P]] + 0)
