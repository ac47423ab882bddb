// Tests: a field stored as a u32, tested and then added to a pointer
// (perf's augmented_raw_syscalls: `arg.size = PERF_ALIGN(len + 1, 8); if
// (arg.size > sizeof(arg.value)) return; arg2 = (void *)&arg.value +
// arg.size`): the reads of the field are the stored register only where
// the verifier would know its bounds as well as the reload's; here they
// stay reloads, zero-extended, which the comparison bounds.
// RUN: socket
// PACKET: ipv4-udp
// EXPECT: retval=16
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct arg {
	unsigned int size;
	int err;
	char value[64];
};

struct args {
	struct arg arg;
	char more[72];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, struct args);
} scratch SEC(".maps");

static __always_inline unsigned int read_bytes(struct __sk_buff *skb, struct arg *a, unsigned int n)
{
	long err = bpf_skb_load_bytes(skb, 0, a->value, n);

	a->size = a->err = 0;
	if (err < 0)
		a->err = err;
	else
		a->size = n;
	return a->size;
}

SEC("socket")
int store_narrow_reload(struct __sk_buff *skb)
{
	int k = 0;
	struct args *v = bpf_map_lookup_elem(&scratch, &k);
	unsigned int len;

	if (!v)
		return 0;
	len = read_bytes(skb, &v->arg, 9);
	v->arg.size = ((len + 1) + 7) & ~7u;
	if (v->arg.size > sizeof(v->arg.value))
		return 1;
	struct arg *arg2 = (void *)&v->arg.value + v->arg.size;
	if (bpf_skb_load_bytes(skb, 0, arg2, 8) < 0)
		return 2;
	return v->arg.size;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: store_narrow_reload:
// CHECK: exit
