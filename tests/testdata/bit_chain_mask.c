// Tests: a chain of `if (caps & (1 << n)) res |= 1 << n;` (the bit kept
// where it is) is one mask, `res = caps & M`, as clang's instcombine
// makes it: each test becomes `res |= caps & (1 << n)` (selectBits), and
// the ors of one register's masks merge. falco's capabilities_to_scap, 41
// such tests, was 141 instructions against clang's 13. A 54-byte packet is
// 40 bytes past its Ethernet header, as a socket filter sees it: 40 & 0x27
// is 32.
// RUN: socket
// PACKET: zeros len=54
// EXPECT: retval=32
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define B(n) if (caps & (1UL << n)) res |= (1UL << n);

SEC("socket")
int bit_chain_mask(struct __sk_buff *skb)
{
	unsigned long caps = skb->len, res = 0;

	B(0) B(1) B(2) B(5)
	return res;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: r{{[0-9]}} &= 39
// CHECK-NOT: |=
