// Tests: the two arms of an if that compile to the same instructions (as
// BPF_KSYSCALL's two inlined copies of a body that reads no argument do)
// share one copy: a block ending in the same test with the same
// successors as another becomes a jump to it.
// RUN: socket
// EXPECT: retval=0
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} hits SEC(".maps");

int flag;

static __attribute__((always_inline)) int count(void)
{
	__u32 k = 0;
	__u64 *v = bpf_map_lookup_elem(&hits, &k);

	if (!v)
		return 0;
	*v += 1;
	return 0;
}

SEC("socket")
int twin_arms(struct __sk_buff *skb)
{
	if (flag)
		return count();
	return count();
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: twin_arms: (section socket,
// CHECK: call 1
// CHECK-NOT: call 1
// CHECK: exit
