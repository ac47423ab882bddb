// Tests: a value a branch tested, computed again far from the test (a
// packed member reassembled from its bytes a second time, after more values
// than cse carries across blocks), is the register the branch tested:
// tetragon's filter_inet switches on `filter->type`, sets `sk` only for
// sock_type, and dereferences it under a second `filter->type ==
// sock_type`. Computed afresh, the second value is unknown to the
// verifier, which walks sk == NULL into the load: "R? invalid mem access
// 'scalar'".
// RUN: load-only
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct filt {
	__u32 op;
	__u32 type;
	__u64 w[8];
} __attribute__((packed));

struct sk_t {
	__u64 pad[4];
	__u8 state;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, char[256]);
} heap SEC(".maps");

SEC("tracepoint/syscalls/sys_enter_getpid")
int prog(void *ctx)
{
	int zero = 0;
	char *m = bpf_map_lookup_elem(&heap, &zero);
	if (!m)
		return 0;
	struct filt *filter = (struct filt *)m;
	struct sk_t *sk = 0;
	__u64 value = 0;

	switch (filter->type) {
	case 7:
		sk = (struct sk_t *)(m + 128);
		break;
	case 5:
		break;
	default:
		return 0;
	}
	/* Forty values computed on the way. */
	__u64 acc = filter->w[0];
#pragma unroll
	for (int i = 1; i < 8; i++)
		acc = acc * filter->w[i] + (acc >> i) + (filter->w[i] ^ i);
	switch (filter->op) {
	case 1:
		value = acc;
		break;
	case 3:
		if (filter->type == 7)
			value = sk->state;
		break;
	}
	return value;
}

char _license[] SEC("license") = "GPL";

// CHECK: if w[[T:[0-9]]] != 5 goto
// CHECK: if w[[T]] == 7 goto
// CHECK: if w[[T]] != 7 goto
// CHECK-NEXT: = *(u8 *)(r{{[0-9]}} + 32)
