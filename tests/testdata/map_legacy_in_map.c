// Tests: iproute2's map of maps in SEC("maps"): the outer map's inner_id
// names the inner map's id, and the loader puts the inner map in the
// outer one at its inner_idx; bpfcc emits the BTF-defined map of maps
// (values: the inner definition, initialised with the inner map).
// RUN: socket
// PACKET: ipv4-udp repeat=2
// EXPECT: retval=0
// EXPECT-MAP: inner_counts key=0 value=2
// CLANG-BPFTOOL: skip libbpf 1.x does not load clang's legacy "maps" section
// CLANG-CILIUM: skip cilium/ebpf leaves the legacy ids to its caller (MapSpec.Extra): no inner map
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct bpf_elf_map {
	__u32 type;
	__u32 size_key;
	__u32 size_value;
	__u32 max_elem;
	__u32 flags;
	__u32 id;
	__u32 pinning;
	__u32 inner_id;
	__u32 inner_idx;
};

struct bpf_elf_map SEC("maps") inner_counts = {
	.type = BPF_MAP_TYPE_ARRAY,
	.size_key = sizeof(__u32),
	.size_value = sizeof(__u64),
	.max_elem = 1,
	.id = 7,
	.inner_idx = 1,
};

struct bpf_elf_map SEC("maps") outer = {
	.type = BPF_MAP_TYPE_ARRAY_OF_MAPS,
	.size_key = sizeof(__u32),
	.size_value = sizeof(__u32),
	.max_elem = 2,
	.inner_id = 7,
};

SEC("socket")
int map_legacy_in_map(struct __sk_buff *skb)
{
	__u32 slot = 1, key = 0;
	__u64 *v;
	void *m = bpf_map_lookup_elem(&outer, &slot);

	if (!m)
		return 1;
	v = bpf_map_lookup_elem(m, &key);
	if (v)
		__sync_fetch_and_add(v, 1);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: r1 = map[outer] ll
// CHECK: call 1
