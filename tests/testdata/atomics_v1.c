// Tests: 64-bit fetching atomics (compare-and-swap, exchange, fetch-or) at
// -mcpu=v1, as clang emits them: the kernel knows no -mcpu, and projects
// that pass none build at clang's default v1 (bpf-developer-tutorial's
// 55-dns-egress). Only the 32-bit forms need v3's ALU32 (lower's tests).
// CPU: v1
// RUN: socket
// EXPECT: retval=12
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} cell SEC(".maps");

SEC("socket")
int atomics_v1(struct __sk_buff *skb)
{
	__u32 k = 0;
	__u64 *v = bpf_map_lookup_elem(&cell, &k);
	int r = 0;

	if (!v)
		return -1;
	*v = 0;
	r += __sync_val_compare_and_swap(v, 0, 4);  /* 0, now 4 */
	r += __sync_fetch_and_or(v, 2);              /* 4, now 6 */
	r += __sync_lock_test_and_set(v, 1);         /* 6, now 1 */
	r += __sync_fetch_and_add(v, 1);             /* 1, now 2 */
	return r + (*v == 2);                        /* 4 + 6 + 1 + 1 */
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: atomics_v1: (section socket,
// CHECK: cmpxchg(
// CHECK: atomic_fetch_or(
// CHECK: xchg(
