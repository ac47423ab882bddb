// Tests: stack objects share memory where their accesses never meet, not
// only where their C blocks do. `e` is declared before the inlined
// helper's 300-byte buffer but first written after the helper returns, and
// `first` is last read before the second helper call: each shares memory
// with a buffer, so the frame is 304 bytes where objects bounded by their
// declarations would need 912 (clang's stack colouring refuses this
// program: 600 bytes; KubeArmor's kretprobe__tcp_connect, 584 bytes).
// RUN: socket
// CLANG-REJECTS: BPF stack limit is exceeded
// PACKET: ipv4-udp dport=53
// EXPECT: retval=53
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct event {
	char head[296];
	int sum;
};

static __always_inline int peek(struct __sk_buff *skb, int off)
{
	char tmp[300];

	__builtin_memset(tmp, 0, sizeof tmp);
	if (bpf_skb_load_bytes(skb, off, tmp, 28) < 0)
		return -1;
	return (unsigned char)tmp[22] << 8 | (unsigned char)tmp[23];
}

SEC("socket")
int slot_first_use(struct __sk_buff *skb)
{
	struct event first;
	struct event e;
	int dport;

	__builtin_memset(&first, 0, sizeof first);
	if (bpf_skb_load_bytes(skb, 0, first.head, 14) < 0)
		return 1;
	if ((first.head[0] >> 4) != 4) /* a socket filter's data starts at IP */
		return 2;
	dport = peek(skb, 0);
	__builtin_memset(&e, 0, sizeof e);
	e.sum = dport;
	bpf_skb_load_bytes(skb, 0, e.head, 8);
	return e.sum;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: slot_first_use: (section socket, {{[0-9]+}} insns, stack 304)
