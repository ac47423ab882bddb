// Rejected: a memset of more bytes than are expanded inline (clang-19:
// "A call to built-in function 'memset' is not supported"), also into a
// map value, which may be that large.
// ERROR: 26:26: __builtin_memset of 1032 bytes: over the 1024 bytes expanded inline
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct big {
	__u64 w[129];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct big);
} heap SEC(".maps");

SEC("socket")
int memset_over_1024(struct __sk_buff *skb)
{
	__u32 k = 0;
	struct big *b = bpf_map_lookup_elem(&heap, &k);

	if (b)
		__builtin_memset(b, 0, sizeof(*b));
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
