// Tests: the consecutive cases of a switch that return their own value
// (`case PR_X: return PPM_PR_X;` with equal values, falco's *_to_scap
// helpers) are one range test returning the value itself, as clang makes
// them. As equality tests, each case reached the join as a constant of its
// own, and with a later compare making it precise the verifier walked the
// code between once per case (falco's prctl_x: 7x clang's verified
// instructions; the reduction 6,491 -> 187, clang 564). Case 9 returns
// another value and is tested on its own. A 54-byte packet is 40 bytes past
// its Ethernet header, as a socket filter sees it: 40 & 7 is 0 (the
// default, 100); the second value, 40 % 9 = 4, maps to itself.
// RUN: socket
// PACKET: zeros len=54
// EXPECT: retval=104
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

static __always_inline __u32 to_scap(int o)
{
	switch (o) {
	case 1: return 1;
	case 2: return 2;
	case 3: return 3;
	case 4: return 4;
	case 5: return 5;
	case 6: return 6;
	case 9: return 90;
	}
	return 100;
}

SEC("socket")
int switch_identity(struct __sk_buff *skb)
{
	return to_scap(skb->len & 7) + to_scap(skb->len % 9);
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: w[[T:[0-9]]] -= 1
// CHECK-NEXT: if w[[T]] {{<=|>}} 5 goto
// CHECK-NOT: == 4 goto
