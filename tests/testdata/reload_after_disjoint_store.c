// Tests: a member loaded, tested, and read again after stores through the
// same map value at other offsets (through another register, the value's
// address plus 128) is the value loaded, as clang reuses it: the second
// test is then the first's, and the verifier knows sk is not NULL where it
// is dereferenced (tetragon's filter_inet: `if (filter->type == sock_type)
// value = sk->state;` was refused with "R9 invalid mem access 'scalar'").
// RUN: load-only
// CPU: v2
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct filt {
	__u32 op;
	__u32 type;
};

struct sk_t {
	__u64 saddr;
	__u8 state;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, char[256]);
} heap SEC(".maps");

SEC("tracepoint/syscalls/sys_enter_getpid")
int reload_after_disjoint_store(void *ctx)
{
	int zero = 0;
	char *m = bpf_map_lookup_elem(&heap, &zero);
	struct filt *f;
	struct sk_t *sk = 0;
	__u64 *v;
	__u64 a, b, c;
	__u32 value = 0;

	if (!m)
		return 0;
	f = (struct filt *)m;
	v = (__u64 *)(m + 128);
	switch (f->type) {
	case 7:
		sk = (struct sk_t *)(m + 64);
		break;
	case 5:
		break;
	default:
		return 0;
	}
	a = v[0];
	b = v[1];
	c = v[2];
	v[7] = a * b;
	v[8] = c * a;
	if (f->op == 29 && f->type == 7)
		value = sk->state;
	return value + a + b + c;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: = *(u32 *)(r{{[0-9]}} + 4)
// CHECK-NOT: = *(u32 *)(r{{[0-9]}} + 4)
