// Tests: a BTF-defined array map: lookup with a null check, update through
// the returned pointer and with bpf_map_update_elem, and an out-of-range key.
// RUN: socket
// PACKET: ipv4-tcp repeat=3
// EXPECT: retval=0
// EXPECT-MAP: arr key=0 value=3
// EXPECT-MAP: arr key=1 value=100
// EXPECT-MAP: arr key=2 value=0
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u64);
} arr SEC(".maps");

SEC("socket")
int map_array(struct __sk_buff *skb)
{
	__u32 key = 0, bad = 4, one = 1;
	__u64 hundred = 100, *v;

	v = bpf_map_lookup_elem(&arr, &key);
	if (!v)
		return 1;
	(*v)++;
	if (bpf_map_lookup_elem(&arr, &bad))
		return 2;
	if (bpf_map_update_elem(&arr, &one, &hundred, BPF_ANY))
		return 3;
	if (bpf_map_update_elem(&arr, &bad, &hundred, BPF_ANY) == 0)
		return 4;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: r1 = map[arr] ll
// CHECK: call 1
// CHECK: r1 = map[arr] ll
// CHECK: call 1
// CHECK: r1 = map[arr] ll
// CHECK: call 2
