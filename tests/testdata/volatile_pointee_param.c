// Tests: a parameter declared `const volatile T *p` (READ_ONCE's helper
// style) is an ordinary pointer variable: the qualifier is the pointee's.
// Each read through it stays a load of the map value, and the pointer is
// not kept in a stack slot, stored and reloaded at every use.
// RUN: socket
// EXPECT: retval=0
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} counters SEC(".maps");

static __always_inline __u64 read_once(const volatile void *p)
{
	return *(const volatile __u64 *)p;
}

SEC("socket")
int volatile_pointee_param(struct __sk_buff *skb)
{
	__u32 key = 0;
	__u64 *v = bpf_map_lookup_elem(&counters, &key);

	if (!v)
		return 1;
	/* both loads happen: the pointee is volatile */
	return read_once(v) != read_once(v);
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: volatile_pointee_param: (section socket,
// CHECK: call 1
// CHECK-NOT: *(u64 *)(r10
// CHECK: r[[A:[0-9]]] = *(u64 *)(r0 + 0)
// CHECK-NEXT: r[[B:[0-9]]] = *(u64 *)(r0 + 0)
