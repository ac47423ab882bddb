// Tests: a masked value tested against zero and then used is tested
// itself, not as a bit test of its source: the verifier learns nothing of
// the value from `if x & 0xffff` (beyla's rdns_xdp: len = x & 0xffff; if
// (len == 0 || len > 256) return; then len as a size: "invalid zero-sized
// read").
// RUN: socket
// PACKET: ipv4-udp
// EXPECT: retval=0
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("socket")
int mask_tested_reused(struct __sk_buff *skb)
{
	__u32 len = skb->len & 0xffff;
	char buf[16];

	if (len == 0 || len > sizeof(buf))
		len = sizeof(buf);
	if (bpf_skb_load_bytes(skb, 0, buf, len))
		return 1;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: &= 65535
// CHECK-NOT: if {{.*}} & 65535 goto
// CHECK: call 26
