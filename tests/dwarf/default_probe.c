/* A handler with extra parameters and no SEC("config") entry: compiled with
 * DefaultProbe "params" (bpfcc --load params -x target), its parameters bind
 * to the function's parameters of the same names. */
#include <linux/bpf.h>
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>

struct seen_val {
	long b;
	unsigned int c;
	unsigned int calls;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, int);
	__type(value, struct seen_val);
	__uint(max_entries, 64);
} seen SEC(".maps");

int prog(struct pt_regs *ctx, int a, long b, unsigned char c)
{
	struct seen_val v = { .b = b, .c = c, .calls = 1 };
	struct seen_val *old = bpf_map_lookup_elem(&seen, &a);
	if (old)
		v.calls = old->calls + 1;
	bpf_map_update_elem(&seen, &a, &v, BPF_ANY);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
