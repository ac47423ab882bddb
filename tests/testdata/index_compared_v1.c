// Tests: below v3 a u32 index that an inline asm leaves in a register
// (parca-agent's opaquify32 in its binary search over mappings) and that is
// compared, then used as an index: the comparison's zero extension is the
// one the access uses, as clang's, so the bound reaches the access. bpfcc
// extended a copy for the branch and the index again after it: "R5
// unbounded memory access".
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
int index_compared_v1(struct __sk_buff *skb)
{
	__u32 k = 0;
	proc_t *p = bpf_map_lookup_elem(&procs, &k);

	if (!p)
		return 0;
	__u64 left = 0, right = p->len, pc = skb->len;
	for (int i = 0; i < 12; i++) {
		if (left >= right)
			return 1;
		__u32 mid = (left + right) / 2;
		mid = opaquify32(mid, -1);
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

// The extension the comparison bounds is the register scaled for the access.
// CHECK: index_compared_v1:
// CHECK: w[[M:[0-9]]] = w{{[0-9]}}
// CHECK-NEXT: if r[[M]] >= 2000 goto
// CHECK-NEXT: r[[A:[0-9]]] = r[[M]]
// CHECK-NEXT: r[[A]] *= 40
