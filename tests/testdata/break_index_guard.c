// Tests: a test after an unrolled loop whose breaks each leave the index at a
// constant (`for (i = 0; i < N; i++) if (!t[i]) break; if (i < N) ...`, as
// xdping's __u8 index does) is decided on each break's edge, even when it
// compares 32-bit and the break 64-bit: every break goes straight to the
// body, and the verifier does not walk the test once per break.
// RUN: socket
// EXPECT: retval=1
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct slots {
	__u64 t[4];
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct slots);
} m SEC(".maps");

SEC("socket")
int break_index_guard(struct __sk_buff *skb)
{
	__u32 k = 0;
	struct slots *s = bpf_map_lookup_elem(&m, &k);
	__u8 i;

	if (!s)
		return 0;
#pragma unroll
	for (i = 0; i < 4; i++) {
		if (s->t[i] == 0)
			break;
	}
	if (i < 4) {
		s->t[i] = 7;
		i++;
	}
	return i;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: break_index_guard: (section socket,
// CHECK-NOT: s>= 4
// CHECK-NOT: > 3
// CHECK: exit
