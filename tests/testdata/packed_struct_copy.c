// Tests: a struct copied into and out of a member of a packed struct
// that sits at an odd offset (netobserv's flow_id keeps an in6_addr at
// offset 15): the copy goes in accesses as narrow as the member's
// alignment, since the verifier rejects misaligned stack accesses; so do
// memset and memcpy of the member's address (netobserv's
// memset(&id->src_ip, 0, sizeof(struct in6_addr))).
// RUN: socket
// PACKET: ipv4-udp
// EXPECT: retval=1
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct in6 {
	__u32 a[4];
};

struct key {
	__u8 pad[3];
	struct in6 ip;
	__u8 tail;
} __attribute__((packed));

volatile __u32 seed = 0x11223344;

SEC("socket")
int packed_struct_copy(struct __sk_buff *skb)
{
	struct in6 src = { { seed, seed + 1, seed + 2, seed + 3 } }, back;
	struct key k = {}, k2;

	__builtin_memset(&k.ip, 0xff, sizeof(k.ip));
	if (k.ip.a[1] != 0xffffffff)
		return 2;
	__builtin_memcpy(&k.ip, &src, sizeof(src));
	if (k.ip.a[1] != 0x11223345)
		return 3;
	k.ip = src;
	k.tail = 9;
	k2 = k;
	back = k2.ip;
	return back.a[0] == 0x11223344 && back.a[3] == 0x11223347 && k2.tail == 9 && k2.pad[2] == 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: packed_struct_copy:
// CHECK: exit
