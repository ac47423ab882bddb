// Tests: a bounded value stored to a map value's u32 field and read back
// at once is the stored register, whose bound the verifier knows, as
// clang forwards it (ecapture's SSL probes: e->len = len < 4096 ? len &
// 4095 : 4096, then e->len as a helper's size: the reload had lost the
// bound, "R2 unbounded memory access"). A value the verifier does not see
// to fit is still read back (corpus store_narrow_reload).
// RUN: socket
// PACKET: ipv4-udp
// EXPECT: retval=0
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct ev {
	__s32 len;
	char data[64];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct ev);
} heap SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} rb SEC(".maps");

SEC("socket")
int store_bound_forward(struct __sk_buff *skb)
{
	int len = skb->len;
	__u32 zero = 0;
	struct ev *e = bpf_map_lookup_elem(&heap, &zero);

	if (!e)
		return 1;
	e->len = len < 64 ? len & 63 : 64;
	if (bpf_ringbuf_output(&rb, e->data, e->len, 0))
		return 2;
	return e->len == (len < 64 ? len : 64) ? 0 : 3;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: call 1
// CHECK-NOT: = *(u32 *)(r0 + 0)
// CHECK: call 130
