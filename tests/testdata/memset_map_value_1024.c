// Tests: a 1,024-byte memset into a map value (parca-agent's ERROR_SAMPLE
// clears its stack trace) is expanded inline, as clang expands up to 1,024
// bytes; "BPF objects are at most 512 bytes" before, a stack object's
// limit, though the value is not on the stack.
// RUN: socket
// EXPECT: retval=0
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

typedef struct {
	__u32 len;
	_Bool truncated;
	__u64 addresses[127];
} stack_trace_t;

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, stack_trace_t);
} heap SEC(".maps");

SEC("socket")
int memset_map_value_1024(struct __sk_buff *skb)
{
	__u32 k = 0;
	stack_trace_t *st = bpf_map_lookup_elem(&heap, &k);

	if (!st)
		return -1;
	st->addresses[126] = 7;
	st->len = 3;
	__builtin_memset(st, 0, sizeof(stack_trace_t));
	return st->len + (int)st->addresses[126];
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: memset_map_value_1024: (section socket,
// CHECK: *(u64 *)(r{{[0-9]}} + 1016) = 0
