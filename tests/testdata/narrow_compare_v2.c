// Tests: below v3 (no 32-bit jumps) an int comparison of a value known to
// be in [0, 2^31) compares its register, not a sign-extended copy: the
// verifier then bounds the register that indexes the buffer (tracee's
// buffer.h, `if (buf->offset > ARGS_BUF_SIZE - 1) return 0;
// buf->args[buf->offset] = index;` with a u16 offset, at tracee's -mcpu=v2:
// "R0 max value is outside of the allowed memory range" in 81 programs).
// RUN: socket
// CPU: v2
// PACKET: ipv4-udp
// EXPECT: retval=9
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define SIZE 4000

struct args_buf {
	__u8 args[SIZE];
	__u16 offset;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, struct args_buf);
} bufs SEC(".maps");

SEC("socket")
int narrow_compare_v2(struct __sk_buff *skb)
{
	int k = 0;
	struct args_buf *buf = bpf_map_lookup_elem(&bufs, &k);

	if (!buf)
		return 0;
	if (buf->offset > SIZE - 1) /* 0: the map starts zeroed */
		return 0;
	buf->args[buf->offset] = 9;
	return buf->args[0];
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: narrow_compare_v2: (section socket,
// CHECK: r[[O:[0-9]]] = *(u16 *)(r{{[0-9]}} + 4000)
// CHECK-NEXT: if r[[O]] > 3999 goto
