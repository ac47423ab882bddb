// Tests: as index_compared_v1, in parca-agent's find_offset_for_pc shape:
// the loop unrolled (its registers assigned in every copy) and the bounds
// made opaque too after mid, so that mid's copy is made before the branch
// and another asm comes between: the extension the access uses is still
// the one the comparison bounds.
// CPU: v1
// RUN: socket
// EXPECT: retval=1
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

typedef struct { __u64 begin, end, id, load, type; } mapping_t;
typedef struct { __u64 len; mapping_t mappings[2000]; } proc_t;

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, proc_t);
} procs SEC(".maps");

static __always_inline __u32 opaquify32(__u32 val, __u32 seed)
{
	asm volatile("%0 ^= %1\n%0 ^= %1\n" : "+&r"(val) : "r"(seed));
	return val;
}

SEC("socket")
int index_compared_unrolled_v1(struct __sk_buff *skb)
{
	__u32 k = 0;
	proc_t *p = bpf_map_lookup_elem(&procs, &k);

	if (!p)
		return 0;
	__u64 left = 0, right = p->len, pc = skb->len;
#pragma unroll
	for (int i = 0; i < 12; i++) {
		if (left >= right)
			return 1;
		__u32 mid = (left + right) / 2;
		mid = opaquify32(mid, -1);
		left = opaquify32(left, -1);
		right = opaquify32(right, -1);
		if (mid >= 2000)
			return 2;
		if (p->mappings[mid].begin <= pc)
			left = mid + 1;
		else
			right = mid;
	}
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: w[[M:[0-9]]] = w{{[0-9]}}
// CHECK-NEXT: if r[[M]] >= 2000 goto
// CHECK-NOT: w{{[0-9]}} = w
// CHECK: r[[A:[0-9]]] = r[[M]]
// CHECK-NEXT: r[[A]] *= 40
