// Tests: a per-CPU array map: each run increments this CPU's slot without
// atomics; the harness sums the slots over CPUs.
// RUN: socket
// PACKET: ipv4-tcp repeat=5
// EXPECT: retval=0
// EXPECT-MAP: pcpu key=0 value=5
// EXPECT-MAP: pcpu key=1 value=10
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u64);
} pcpu SEC(".maps");

SEC("socket")
int map_percpu(struct __sk_buff *skb)
{
	__u32 k0 = 0, k1 = 1;
	__u64 *a = bpf_map_lookup_elem(&pcpu, &k0);
	__u64 *b = bpf_map_lookup_elem(&pcpu, &k1);

	if (!a || !b)
		return 1;
	*a += 1;
	*b += 2;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: r1 = map[pcpu] ll
// CHECK: call 1
// CHECK-NOT: lock
// CHECK: r[[V:[0-9]]] = *(u64 *)(r[[P:[0-9]]] + 0)
// CHECK: *(u64 *)(r[[P]] + 0) = r[[V]]
