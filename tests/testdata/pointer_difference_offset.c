// Tests: the difference of a member's address and its base, `(u64)&c->m[i][j]
// - (u64)c` (scx's MEMBER_VPTR), is the member's offset, i * 256 + j * 8, as
// clang folds it: pointer minus pointer is a scalar the verifier knows
// nothing of (and refuses in unprivileged programs), so the bound the code
// checks after it did not carry to the access (scx_layered's stat updates:
// 3.0x clang's verified instructions). A 54-byte packet is 40 bytes past its
// Ethernet header, as a socket filter sees it: i = 40 & 15 = 8, j = 40 & 31
// = 8, offset 2112.
// RUN: socket
// PACKET: zeros len=54
// EXPECT: retval=2112
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct ctx {
	unsigned long long stats[16][32];
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, int);
	__type(value, struct ctx);
	__uint(max_entries, 1);
} m SEC(".maps");

SEC("socket")
int pointer_difference_offset(struct __sk_buff *skb)
{
	int zero = 0;
	struct ctx *c = bpf_map_lookup_elem(&m, &zero);
	unsigned int i = skb->len & 15, j = skb->len & 31;

	if (!c)
		return 0;
	unsigned long long off = (unsigned long long)&c->stats[i][j] - (unsigned long long)c;
	if (off > sizeof(*c) - 8)
		return 1;
	*(unsigned long long *)((char *)c + off) += 1;
	return off;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: pointer_difference_offset: (section socket,
// CHECK-NOT: -= r
