// Tests: helper calls inside a loop: the loop writes keys 0..9 of a hash
// map with their squares, then deletes the odd ones.
// RUN: socket
// EXPECT: retval=0
// EXPECT-MAP: squares key=0 value=0
// EXPECT-MAP: squares key=4 value=16
// EXPECT-MAP: squares key=8 value=64
// EXPECT-MAP: squares key=3 value=absent
// EXPECT-MAP: squares key=9 value=absent
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16);
	__type(key, __u32);
	__type(value, __u32);
} squares SEC(".maps");

SEC("socket")
int loop_map_update(struct __sk_buff *skb)
{
	for (__u32 i = 0; i < 10; i++) {
		__u32 key = i, sq = i * i; /* &i would make i unknown to the verifier */

		if (bpf_map_update_elem(&squares, &key, &sq, BPF_ANY))
			return 1;
	}
	for (__u32 i = 1; i < 10; i += 2) {
		__u32 key = i;

		if (bpf_map_delete_elem(&squares, &key))
			return 2;
	}
	for (__u32 i = 0; i < 10; i += 2) {
		__u32 key = i, *v = bpf_map_lookup_elem(&squares, &key);

		if (!v || *v != i * i)
			return 3;
	}
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// The loops are small enough that clang unrolls them, and bpfcc too.
// CHECK: r1 = map[squares] ll
// CHECK: call 2
// CHECK: r1 = map[squares] ll
// CHECK: call 3
// CHECK-NOT: goto -
