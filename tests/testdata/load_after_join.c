// Tests: a load repeated after a join of paths that all did it first is
// the first load, as in clang's code: skb->data read by an inlined bounds
// check, then again where the check's result joins, must keep the range
// the verifier learned (a fresh load would be a packet pointer of range 0).
// The inlined function's argument is a copy of the context register.
// RUN: tc
// PACKET: ipv4-tcp
// EXPECT: retval=0
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <bpf/bpf_helpers.h>

static inline int shorter(struct __sk_buff *skb, int len)
{
	return (void *)(long)skb->data + len > (void *)(long)skb->data_end;
}

SEC("tc")
int load_after_join(struct __sk_buff *skb)
{
	struct iphdr *ip = 0;

	if (!shorter(skb, sizeof(struct ethhdr) + sizeof(struct iphdr)))
		ip = (void *)(long)skb->data + sizeof(struct ethhdr);
	if (!ip)
		return 1;
	return ip->protocol == IPPROTO_TCP ? 0 : 2;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: r[[D:[0-9]]] = *(u32 *)(r1 + 76)
// CHECK: = *(u32 *)(r1 + 80)
// CHECK-NOT: = *(u32 *)(r{{[0-9]}} + 76)
// The join is threaded away: the header is read through the first load.
// CHECK: r[[D]] += 14
// CHECK: = *(u8 *)(r[[D]] + 9)
// CHECK-NOT: = *(u32 *)(r{{[0-9]}} + 76)
