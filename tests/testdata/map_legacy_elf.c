// Tests: iproute2's legacy map definition, struct bpf_elf_map in
// SEC("maps"), whose words are named size_key, size_value, max_elem and
// flags: loaders read them by position, and so does bpfcc, which emits
// the BTF-defined map libbpf 1.x loads.
// RUN: socket
// PACKET: ipv4-udp repeat=3
// EXPECT: retval=0
// EXPECT-MAP: elf_counts key=17 value=3
// CLANG-BPFTOOL: skip libbpf 1.x does not load clang's legacy "maps" section
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
};

struct bpf_elf_map SEC("maps") elf_counts = {
	.type = BPF_MAP_TYPE_HASH,
	.size_key = sizeof(__u32),
	.size_value = sizeof(__u64),
	.max_elem = 8,
	.flags = BPF_F_NO_PREALLOC,
};

SEC("socket")
int map_legacy_elf(struct __sk_buff *skb)
{
	__u8 proto;
	__u32 key;
	__u64 one = 1, *v;

	if (bpf_skb_load_bytes(skb, 9, &proto, 1)) /* IPv4 protocol */
		return 1;
	key = proto;
	v = bpf_map_lookup_elem(&elf_counts, &key);
	if (v)
		__sync_fetch_and_add(v, 1);
	else
		bpf_map_update_elem(&elf_counts, &key, &one, BPF_NOEXIST);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: r1 = map[elf_counts] ll
// CHECK: call 1
// CHECK: r1 = map[elf_counts] ll
// CHECK: call 2
