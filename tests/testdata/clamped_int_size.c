// Tests: an int clamped below at 0, incremented and clamped above is an
// unsigned bound the verifier accepts as a helper's size: C's signed
// arithmetic does not overflow, so n + 1 of a non-negative n is positive
// and the signed compares of non-negative values are the unsigned ones
// (inspektor-gadget's fsnotify: "R2 unbounded memory access", the
// verifier's n + 1 wrapping to 0x80000000 past a signed bound).
// RUN: load-only
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define MAXLEN 4096

struct val {
	char name[MAXLEN];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct val);
} names SEC(".maps");

SEC("tracepoint/syscalls/sys_enter_getpid")
int clamped_int_size(void *ctx)
{
	__u32 k = 0;
	int n;
	struct val *v = bpf_map_lookup_elem(&names, &k);

	if (!v)
		return 0;
	n = bpf_get_prandom_u32();
	if (n < 0)
		n = 0;
	n++;
	if (n > MAXLEN)
		n = MAXLEN;
	bpf_probe_read_kernel_str(v->name, n, ctx);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: if w{{[0-9]}} s< 0 goto
// CHECK: if w{{[0-9]}} <= 4096 goto
