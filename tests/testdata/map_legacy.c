// Tests: a legacy map definition, struct bpf_map_def in SEC("maps"), as
// seed-era programs write it (libbpf 1.x dropped the type, so it is declared
// here). bpfcc also emits it as a BTF-defined map so libbpf 1.x loads it.
// RUN: socket
// PACKET: ipv4-udp repeat=2
// EXPECT: retval=0
// EXPECT-MAP: legacy_counts key=17 value=2
// CLANG-BPFTOOL: skip libbpf 1.x does not load clang's legacy "maps" section
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct bpf_map_def {
	unsigned int type;
	unsigned int key_size;
	unsigned int value_size;
	unsigned int max_entries;
	unsigned int map_flags;
};

struct bpf_map_def SEC("maps") legacy_counts = {
	.type = BPF_MAP_TYPE_HASH,
	.key_size = sizeof(__u32),
	.value_size = sizeof(__u64),
	.max_entries = 32,
};

SEC("socket")
int map_legacy(struct __sk_buff *skb)
{
	__u8 proto;
	__u32 key;
	__u64 one = 1, *v;

	if (bpf_skb_load_bytes(skb, 9, &proto, 1)) /* IPv4 protocol */
		return 1;
	key = proto;
	v = bpf_map_lookup_elem(&legacy_counts, &key);
	if (v)
		__sync_fetch_and_add(v, 1);
	else
		bpf_map_update_elem(&legacy_counts, &key, &one, BPF_NOEXIST);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: call 26
// CHECK: r1 = map[legacy_counts] ll
// CHECK: call 1
// CHECK: lock *(u64 *)(r0 + 0) += r{{[0-9]}}
// CHECK: r1 = map[legacy_counts] ll
// CHECK: call 2
