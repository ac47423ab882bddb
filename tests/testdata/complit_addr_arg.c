// Tests: the address of a compound literal passed to a helper is a stack
// address holding the literal, not the literal's value (cc folds
// &(T){ v } to v).
// RUN: xdp
// EXPECT: retval=0
// EXPECT-MAP: vals key=7 value=42
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 16);
	__type(key, __u32);
	__type(value, __u64);
} vals SEC(".maps");

SEC("xdp")
int complit_addr_arg(struct xdp_md *ctx)
{
	__u64 *v;
	__u32 *k = &(__u32){ 7 };

	if (bpf_map_update_elem(&vals, &(__u32){ 7 }, &(__u64){ 42 }, BPF_ANY))
		return 1;
	v = bpf_map_lookup_elem(&vals, &(__u32){ 7 });
	if (!v || *v != 42)
		return 2;
	if (*k != 7)
		return 3;
	return 0;
}

char _license[] SEC("license") = "GPL";

// CHECK: *(u32 *)(r10 - [[K:[0-9]+]]) = 7
// CHECK: r2 += -[[K]]
// CHECK: *(u64 *)(r10 - [[V:[0-9]+]]) = 42
// CHECK: r3 += -[[V]]
// CHECK: call 2
