// Tests: a branch on one-bit fields (`f.fin || f.syn || !f.ack`) tests the
// loaded byte with JSET against each field's mask instead of extracting the
// field with a pair of shifts.
// RUN: socket
// EXPECT: retval=0
// ASM: "if w1 & 2 goto"
// ASM: -"<<= 62"
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct flags {
	__u8 fin:1, syn:1, rst:1, psh:1, ack:1, urg:1, ece:1, cwr:1;
};

struct flags synack = { .syn = 1, .ack = 1 };
struct flags ack = { .ack = 1 };
int unexpected;

static __attribute__((noinline)) int accept(struct flags *f)
{
	if (f->fin || f->syn || !f->ack) {
		unexpected++;
		return 1;
	}
	return 0;
}

SEC("socket")
int bitfield_test(struct __sk_buff *skb)
{
	if (accept(&synack) != 1)
		return 1;
	if (accept(&ack) != 0)
		return 2;
	if (unexpected != 1)
		return 3;
	return 0;
}

char _license[] SEC("license") = "GPL";

// CHECK: accept: (section .text,
// CHECK-NOT: <<=
// CHECK-NOT: >>=
// CHECK: r[[F:[0-9]]] = *(u8 *)(r1 + 0)
// CHECK-NEXT: if w[[F]] & 1 goto
// CHECK-NEXT: if w[[F]] & 2 goto
// CHECK-NEXT: if w[[F]] & 16 goto
// CHECK: bitfield_test: (section socket,
