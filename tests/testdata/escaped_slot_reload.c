// Tests: a local whose address a helper takes (bpf_skb_store_bytes reads
// it) is stored and then read back with nothing between that could write
// it: the read is the stored register, as in clang's code, not a reload.
// RUN: tc
// PACKET: ipv4-tcp
// EXPECT: retval=0
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <bpf/bpf_helpers.h>

SEC("tc")
int escaped_slot_reload(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data;
	void *end = (void *)(long)skb->data_end;
	__u8 proto = 0;

	if (data + sizeof(struct ethhdr) + sizeof(struct iphdr) > end)
		return 1;
	proto = ((struct iphdr *)(data + sizeof(struct ethhdr)))->protocol;
	if (proto != 6)
		return 2;
	bpf_skb_store_bytes(skb, 100, &proto, sizeof(proto), 0);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: escaped_slot_reload: (section tc,
// CHECK: r[[P:[0-9]]] = *(u8 *)(r{{[0-9]}} + 23)
// CHECK-NEXT: *(u8 *)(r10 - {{[0-9]+}}) = r[[P]]
// CHECK-NEXT: if w[[P]] != 6 goto
