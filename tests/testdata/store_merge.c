// Tests: a struct initializer with string members, which lowers to zeroing
// stores and one byte store per character, is stored with the fewest
// aligned stores that leave the same bytes ("skcipher" as two 4-byte
// stores), and the object handed to a helper holds what C says.
// RUN: socket
// EXPECT: retval=0
// ASM: "*(u32 *)(r10 - 32) = 1768123251"
// ASM: -"*(u8 *)(r10 - 31) = 107"
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct params {
	char type[14];
	char algo[10];
	__u32 key_len;
	__u16 flags;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct params);
} out SEC(".maps");

#define CHECK(n, cond) do { if (!(cond)) return n; } while (0)

SEC("socket")
int store_merge(struct __sk_buff *skb)
{
	struct params p = {
		.type = "skcipher",
		.algo = "ecb(aes)",
		.key_len = 16,
	};
	__u32 key = 0;
	struct params *v;

	if (bpf_map_update_elem(&out, &key, &p, 0))
		return 1;
	v = bpf_map_lookup_elem(&out, &key);
	if (!v)
		return 2;
	CHECK(3, v->type[0] == 's' && v->type[3] == 'i' && v->type[7] == 'r' && v->type[8] == 0);
	CHECK(4, v->type[13] == 0 && v->algo[0] == 'e' && v->algo[7] == ')' && v->algo[9] == 0);
	CHECK(5, v->key_len == 16 && v->flags == 0);
	return 0;
}

char _license[] SEC("license") = "GPL";

// CHECK-NOT: *(u8 *)(r10 -
// CHECK: *(u32 *)(r10 - 32) = 1768123251
// CHECK-NEXT: *(u32 *)(r10 - 28) = 1919248496
// CHECK: call 2
