// Tests: memset and memcpy of an array member move whole words when the
// member's container alignment and offset allow it, as clang does: the
// pointer to a struct is aligned for the struct, so name (offset 8) takes
// u64 stores and tag (offset 28) u32 ones.
// RUN: socket
// EXPECT: retval=1
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct val {
	__u64 id;
	char name[16];
	__u32 len;
	char tag[8];
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct val);
} vals SEC(".maps");

SEC("socket")
int memset_member_align(struct __sk_buff *skb)
{
	__u32 k = 0;
	struct val *v = bpf_map_lookup_elem(&vals, &k);

	if (!v)
		return 0;
	__builtin_memset(v->name, 0, sizeof(v->name));
	__builtin_memcpy(v->tag, v->name, sizeof(v->tag));
	return 1;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: memset_member_align: (section socket,
// CHECK: *(u64 *)(r0 + 8) = 0
// CHECK-NEXT: *(u64 *)(r0 + 16) = 0
// CHECK-NOT: *(u8 *)
// CHECK: *(u32 *)(r0 + 28) =
// CHECK: *(u32 *)(r0 + 32) =
// CHECK-NOT: *(u8 *)
