// Tests: an out parameter a parse helper sets only on success, read after
// a check that cannot tell (xdp-project's tc-basic-classifier: -1 <
// sizeof(ptr) is false, so a failed parse reaches the dereference). C
// leaves the pointer uninitialised there; clang's φ(undef, v) is v, so
// the verifier sees the packet pointer it proved on the success path.
// bpfcc reads the one stored value too (not 0, a scalar the verifier
// would refuse to dereference).
// RUN: tc
// PACKET: ipv4-tcp
// EXPECT: retval=6
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <bpf/bpf_helpers.h>

static __always_inline int parse_ip(void *pos, void *end, struct iphdr **out)
{
	struct iphdr *ip = pos + sizeof(struct ethhdr);

	if ((void *)(ip + 1) > end)
		return -1;
	*out = ip;
	return sizeof(*ip);
}

SEC("tc")
int uninit_out_param(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data;
	void *end = (void *)(long)skb->data_end;
	struct iphdr *ip;
	int len = parse_ip(data, end, &ip);

	if (len < sizeof(ip) || (void *)(ip + 1) > end)
		return 0;
	return ip->protocol;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: uninit_out_param:
// CHECK: exit
