// Tests: `n = a[i] > 32 ? 32 : a[i]` reads a[i] once, as clang does: the
// index converted to 64 bits is one value in both arms, so the second
// read is the tested register and keeps the verifier's bound (perf's
// augmented_raw_syscalls: a second, unbounded load passed as a size was
// "R2 unbounded memory access").
// RUN: socket
// PACKET: ipv4-udp
// EXPECT: retval=20
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, __u64[8]);
} vals SEC(".maps");

SEC("socket")
int ternary_bound_reuse(struct __sk_buff *skb)
{
	int k = 0, i;
	__u64 *a = bpf_map_lookup_elem(&vals, &k);
	char buf[32];
	long n;

	if (!a)
		return 0;
	a[3] = 20;
	a[7] = 3;
	i = a[7] & 7;
	n = a[i] > 32 ? 32 : a[i];
	if (n > 0 && bpf_skb_load_bytes(skb, 0, buf, n) == 0)
		return n;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: ternary_bound_reuse:
// CHECK: exit
