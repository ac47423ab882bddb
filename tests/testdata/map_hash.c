// Tests: a BTF-defined hash map with a struct key: insert, lookup, update
// in place, BPF_NOEXIST on an existing key, delete and lookup of the deleted
// key.
// RUN: socket
// EXPECT: retval=0
// EXPECT-MAP: flows key=hex:0a00000150000000 value=7
// EXPECT-MAP: flows key=hex:0a00000251000000 value=absent
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct flow { __u32 addr; __u16 port; __u16 pad; };

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16);
	__type(key, struct flow);
	__type(value, __u32);
} flows SEC(".maps");

SEC("socket")
int map_hash(struct __sk_buff *skb)
{
	struct flow a = { .addr = 0x0100000a, .port = 80 };
	struct flow b = { .addr = 0x0200000a, .port = 81 };
	__u32 one = 1, *v;

	if (bpf_map_update_elem(&flows, &a, &one, BPF_ANY))
		return 1;
	if (bpf_map_update_elem(&flows, &b, &one, BPF_ANY))
		return 2;
	if (bpf_map_update_elem(&flows, &a, &one, BPF_NOEXIST) == 0)
		return 3;
	v = bpf_map_lookup_elem(&flows, &a);
	if (!v)
		return 4;
	*v += 6;
	if (bpf_map_delete_elem(&flows, &b))
		return 5;
	if (bpf_map_lookup_elem(&flows, &b))
		return 6;
	if (bpf_map_delete_elem(&flows, &b) == 0)
		return 7;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: r1 = map[flows] ll
// CHECK: call 2
// CHECK: r1 = map[flows] ll
// CHECK: call 1
// CHECK: r1 = map[flows] ll
// CHECK: call 3
