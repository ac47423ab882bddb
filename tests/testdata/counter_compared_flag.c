// Tests: a register whose definitions are all constants and whose one use
// is a compare with a constant holds the compare's outcome instead: the
// count of an unrolled walk, compared once after a second loop (falco's
// store_cgroup_subsys: `if (path_components <= 1)`), reached the compare
// as one constant per trip count, which the compare made precise, and the
// verifier walked the second loop once per count (1,632 verified
// instructions against clang's 675; now 671). A 54-byte packet is 40
// bytes past its Ethernet header, as a socket filter sees it: the walk
// counts 40, 10 and 2, three.
// RUN: socket
// PACKET: zeros len=54
// EXPECT: retval=3
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64[8]);
} vals SEC(".maps");

SEC("socket")
int counter_compared_flag(struct __sk_buff *skb)
{
	__u32 key = 0;
	__u64 *v = bpf_map_lookup_elem(&vals, &key);
	__u32 n = skb->len;
	__u8 comps = 0;

	if (!v)
		return 0;
#pragma unroll
	for (int k = 0; k < 6; k++) {
		if (!n)
			break;
		comps++;
		v[k] = n;
		n >>= 2;
	}
	for (int k = 5; k >= 0; k--)
		if (v[k])
			v[6] += v[k] & 7;
	if (comps <= 1)
		return 1;
	return 3;
}

char LICENSE[] SEC("license") = "GPL";

// The counts 2 to 6 are gone: each arm sets whether its count is <= 1.
// CHECK-NOT: r{{[0-9]}} = {{[2-6]}}{{$}}
// CHECK: if r{{[0-9]}} {{[!=]}}= 0 goto
