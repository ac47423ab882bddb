// Tests: forty inlined calls of a helper whose locals are address-taken
// (passed to bpf_map_update_elem) share the callee's stack slots, so the
// frame stays far below 512 bytes; every stored value is read back.
// RUN: socket
// PACKET: ipv4-udp payload=12
// EXPECT: retval=0
// ASM: "stack 16)"
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 64);
} out SEC(".maps");

static __always_inline void put(__u32 k, __u64 v)
{
	bpf_map_update_elem(&out, &k, &v, BPF_ANY);
}

static __always_inline __u64 get(__u32 k)
{
	__u64 *v = bpf_map_lookup_elem(&out, &k);
	return v ? *v : 0xdead;
}

#define P4(i) put(i, x + i); put(i + 1, x * (i + 1)); put(i + 2, x - i); put(i + 3, x ^ i);
#define C4(i) if (get(i) != x + i || get(i + 1) != x * (i + 1) || get(i + 2) != x - i || get(i + 3) != (x ^ i)) return 1 + i;

SEC("socket")
int inline_stack_reuse(struct __sk_buff *skb)
{
	__u64 x = skb->len;

	P4(0) P4(4) P4(8) P4(12) P4(16) P4(20) P4(24) P4(28) P4(32) P4(36)
	C4(0) C4(4) C4(8) C4(12) C4(16) C4(20) C4(24) C4(28) C4(32) C4(36)
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: inline_stack_reuse: (section socket, {{[0-9]+}} insns, stack 16)
// CHECK-NOT: r10 - {{([2-9][0-9]|[0-9]{3})}}
// CHECK: r[[K:[0-9]]] = 39
// CHECK-NEXT: *(u32 *)(r10 - 4) = r[[K]]
// CHECK-NEXT: *(u64 *)(r10 - 16) = r{{[0-9]}}
// CHECK-NEXT: r1 = map[out] ll
// CHECK-NEXT: r2 = r10
// CHECK-NEXT: r2 += -4
// CHECK-NEXT: r3 = r10
// CHECK-NEXT: r3 += -16
// CHECK-NEXT: ; bpf_map_update_elem
// CHECK-NEXT: r4 = 0
// CHECK-NEXT: call 2
// CHECK-NOT: r10 - {{([2-9][0-9]|[0-9]{3})}}
// CHECK: r[[K:[0-9]]] = 39
// CHECK-NEXT: *(u32 *)(r10 - 4) = r[[K]]
// CHECK-NEXT: r1 = map[out] ll
// CHECK-NEXT: r2 = r10
// CHECK-NEXT: r2 += -4
// CHECK-NEXT: ; bpf_map_lookup_elem
// CHECK-NEXT: call 1
// CHECK-NOT: r10 - {{([2-9][0-9]|[0-9]{3})}}
