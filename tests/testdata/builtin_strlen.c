// Tests: __builtin_strlen of a string literal is a constant, as clang folds
// it, also once inlining binds a parameter to the literal (tracee's logging
// measures __FILE__ passed to an always-inline function and copies that
// many bytes): it was "builtin __builtin_strlen is not supported".
// RUN: socket
// PACKET: ipv4-udp
// EXPECT: retval=18
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, char[32]);
} names SEC(".maps");

static __always_inline int keep(const char *name)
{
	__u32 zero = 0;
	char *out = bpf_map_lookup_elem(&names, &zero);
	__u64 n = __builtin_strlen(name);

	if (!out)
		return 0;
	if (n > 31)
		n = 31;
	__builtin_memcpy(out, name, n);
	out[n] = 0;
	return n;
}

SEC("socket")
int builtin_strlen(struct __sk_buff *skb)
{
	return keep("builtin_strlen") + __builtin_strlen("abcd");
}

char LICENSE[] SEC("license") = "GPL";

// The lengths are constants: no call, no loop.
// CHECK: builtin_strlen: (section socket,
// CHECK-NOT: call builtin
// CHECK: *(u8 *)(r0 + 14) = 0
// CHECK-NEXT: r0 = 14
