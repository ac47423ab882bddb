// Tests: zeroing a scalar that a helper then fills whole is dead (the
// helper writes every byte, zeros when it fails: libbpf's and KubeArmor's
// READ_KERN zero their temporary first), so the scalar is one only helpers
// write, and such scalars share 8-byte words: 24 of them beside a 384-byte
// buffer need 480 bytes, where the zeroing kept them a word each (576,
// over BPF's limit; clang's frame: 680). The values read through the
// packed objects are the bytes the buffer holds.
// RUN: socket
// CLANG-REJECTS: BPF stack limit is exceeded
// PACKET: ipv4-udp dport=53
// EXPECT: retval=24
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define LOAD(n) __u32 v##n; __builtin_memset(&v##n, 0, 4); bpf_skb_load_bytes(skb, n, &v##n, 4);
#define SAME(n) (v##n == (buf[n] | buf[n + 1] << 8 | buf[n + 2] << 16 | (__u32)buf[n + 3] << 24))

SEC("socket")
int zeroed_pairs(struct __sk_buff *skb)
{
	unsigned char buf[384];

	__builtin_memset(buf, 0, sizeof buf);
	if (bpf_skb_load_bytes(skb, 0, buf, 28) < 0)
		return -1;
	LOAD(0) LOAD(1) LOAD(2) LOAD(3) LOAD(4) LOAD(5) LOAD(6) LOAD(7)
	LOAD(8) LOAD(9) LOAD(10) LOAD(11) LOAD(12) LOAD(13) LOAD(14) LOAD(15)
	LOAD(16) LOAD(17) LOAD(18) LOAD(19) LOAD(20) LOAD(21) LOAD(22) LOAD(23)
	return SAME(0) + SAME(1) + SAME(2) + SAME(3) + SAME(4) + SAME(5) +
	       SAME(6) + SAME(7) + SAME(8) + SAME(9) + SAME(10) + SAME(11) +
	       SAME(12) + SAME(13) + SAME(14) + SAME(15) + SAME(16) + SAME(17) +
	       SAME(18) + SAME(19) + SAME(20) + SAME(21) + SAME(22) + SAME(23);
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: zeroed_pairs: (section socket, {{[0-9]+}} insns, stack 480)
