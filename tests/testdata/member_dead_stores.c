// Tests: a local struct a parser fills member by member, of which the
// program then reads one member, keeps only the stores that member's bytes
// need: the stores of the members nothing reads are dead.
// RUN: socket
// EXPECT: retval=0
// ASM: -"*(u8 *)(r10 - 8) ="
// ASM: -"*(u16 *)(r10 - 16) ="
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct parsed {
	__u16 proto;
	__u16 off;
	__u16 outer;
	__u16 inner;
	__u8 outer_off;
	__u8 inner_off;
};

volatile __u32 in_proto = 0x81;
volatile __u32 in_tci = 0xfab;

static void parse(struct parsed *p)
{
	__u8 off = 14;

	if (in_proto == 0x81) {
		p->outer_off = off;
		p->outer = in_tci & 0xfff;
		off += 4;
	}
	p->proto = in_proto;
	p->off = off;
}

SEC("socket")
int member_dead_stores(struct __sk_buff *skb)
{
	struct parsed p = { 0 };

	parse(&p);
	if (p.outer != 0xfab)
		return 1;
	return 0;
}

char _license[] SEC("license") = "GPL";

// CHECK-NOT: *(u8 *)(r10 - 8) =
// CHECK-NOT: *(u16 *)(r10 - 16) =
// CHECK: w[[T:[0-9]]] &= 4095
// The struct's address is never taken after inlining: its members are
// registers, and the one read is compared straight from one.
// CHECK-NOT: (r10 -
// CHECK: if w[[T]] == 4011 goto
// CHECK-NOT: (r10 -
