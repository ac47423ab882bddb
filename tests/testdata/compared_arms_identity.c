// Tests: a chain of `if (f == C) return C;` ending in `return f;` is f
// (falco's socket_family_to_scap, whose PPM_AF_* equal the AF_*
// values): the arms' constants are the compared value, so the join gets f
// from every one, as clang folds the phi, and the chain goes. The
// verifier walked what follows the join once per arm (falco's connect_x,
// 1.97x clang's verified instructions: now 1.01x). The (char) extension
// of the result only feeds a one-byte store and goes too. A 20-byte packet
// is 6 bytes past its Ethernet header, as a socket filter sees it: 6 + 1.
// RUN: socket
// PACKET: zeros len=20
// EXPECT: retval=7
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

static __always_inline unsigned char to_scap(unsigned char f)
{
	if (f == 2)
		return 2;
	else if (f == 10)
		return 10;
	else if (f == 1)
		return 1;
	else if (f == 16)
		return 16;
	else if (f == 0)
		return 0;
	return f;
}

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, long);
} out SEC(".maps");

SEC("socket")
int compared_arms_identity(struct __sk_buff *skb)
{
	int k = 0;
	char *v = bpf_map_lookup_elem(&out, &k);
	unsigned char fam = skb->len & 31;

	if (!v)
		return 0;
	*v = to_scap(fam);
	return *v + 1;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK-NOT: == 10 goto
// CHECK-NOT: s>>= 56
// CHECK: *(u8 *)(r{{[0-9]}} + 0) = r{{[0-9]}}
