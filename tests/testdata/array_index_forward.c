// Tests: an array local indexed by the loop counter, whose elements are
// read back only right after they are written (`p[i] = lookup(); if
// (!p[i]) ...; p[i + 1] = ...; *p[i + 1] += *p[i]`, as the selftests'
// linked_list.c does with an array of 200 pointers): each load reads the
// register stored, across the calls and the store to the next element,
// and the 800-byte array, never read again, leaves the stack. Without
// this the frame is over BPF's 512 bytes.
// RUN: socket
// EXPECT: retval=0
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u64);
} m SEC(".maps");

SEC("socket")
int array_index_forward(struct __sk_buff *skb)
{
	__u64 *p[100];
	int i;

	for (i = 0; i < 100; i += 2) {
		__u32 k = i & 3;

		p[i] = bpf_map_lookup_elem(&m, &k);
		if (!p[i])
			return 2;
		*p[i] += i;
		k = (i + 1) & 3;
		p[i + 1] = bpf_map_lookup_elem(&m, &k);
		if (!p[i + 1])
			return 3;
		*p[i + 1] += *p[i];
	}
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: array_index_forward: (section socket, {{[0-9]+}} insns, stack 8)
// CHECK: call 1
// CHECK: call 1
// CHECK: exit
