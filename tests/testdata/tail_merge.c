// Tests: an always-inline function called before several returns (a struct
// copy and a map update, as bpf_flow.c's export_flow_keys) leaves one copy
// of its code that the returns jump to, as clang's branch folding does,
// and each result is still the one C says.
// RUN: socket
// EXPECT: retval=0
// EXPECT-MAP: last key=0 value=3
// CHECK: r0 = 1
// CHECK-NOT: r0 = 1
// CHECK: r0 = 0
// CHECK-NOT: r0 = 0
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} last SEC(".maps");

volatile __u32 step = 3;

static __always_inline int export(__u64 v, int ret)
{
	__u32 key = 0;

	bpf_map_update_elem(&last, &key, &v, BPF_ANY);
	return ret;
}

SEC("socket")
int tail_merge(struct __sk_buff *skb)
{
	__u32 s = step;

	if (s == 1)
		return export(s, 1);
	if (s == 2)
		return export(s, 1);
	if (s == 3)
		return export(s, 0);
	return export(s, 0);
}

char _license[] SEC("license") = "GPL";
