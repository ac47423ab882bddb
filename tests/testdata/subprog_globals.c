// Tests: a bpf-to-bpf subprogram that uses a map and a .data global itself
// (relocations inside .text), called from two programs in one object.
// RUN: socket prog=sub_a
// PACKET: ipv4-tcp repeat=2
// EXPECT: retval=2
// EXPECT-VAR: calls=2
// EXPECT-MAP: hits key=0 value=2
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u64);
} hits SEC(".maps");

__u32 calls = 0;

static __attribute__((noinline)) int record(__u32 which)
{
	__u64 *v = bpf_map_lookup_elem(&hits, &which);

	if (!v)
		return -1;
	*v += 1;
	calls++;
	return *v;
}

SEC("socket")
int sub_a(struct __sk_buff *skb)
{
	return record(0);
}

SEC("socket")
int sub_b(struct __sk_buff *skb)
{
	return record(1);
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: record: (section .text,
// CHECK: r1 = map[hits] ll
// CHECK: call 1
// CHECK: r[[C:[0-9]]] = calls ll
// CHECK-NEXT: r[[N:[0-9]]] = *(u32 *)(r[[C]] + 0)
// CHECK-NEXT: w[[N]] += 1
// CHECK-NEXT: *(u32 *)(r[[C]] + 0) = r[[N]]
// CHECK: sub_a: (section socket,
// CHECK-NEXT: r1 = 0
// CHECK-NEXT: call record
// CHECK: sub_b: (section socket,
// CHECK-NEXT: r1 = 1
// CHECK-NEXT: call record
