// Tests: the layout of an || chain whose failure block runs on to an exit
// (log, then return): the tests fall through one to the next and the
// shared failure block comes after the last of them, as clang lays it out,
// so the verifier walks the chain before the block it joins.
// RUN: socket
// EXPECT: retval=0
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

int logged;

SEC("socket")
int or_chain_tail(struct __sk_buff *skb)
{
	volatile __u32 a = 1, b = 2, flags = 4;

	if (a != 1 || b != 2 || !(flags & 4) || (flags & 1)) {
		logged++;
		bpf_printk("bad: %u %u %u", a, b, flags);
		return 1;
	}
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: or_chain_tail: (section socket,
// CHECK: if w{{[0-9]}} != 1 goto {{[+][0-9]+}} <[[FAIL:[0-9]+]]>
// CHECK-NEXT: r[[B:[0-9]]] = *(u32 *)(r10 - 8)
// CHECK-NEXT: if w[[B]] != 2 goto {{[+][0-9]+}} <[[FAIL]]>
// CHECK-NEXT: r[[F:[0-9]]] = *(u32 *)(r10 - 12)
// CHECK-NEXT: if w[[F]] & 4 goto
// CHECK: [[FAIL]]: r{{[0-9]}} = logged ll
// CHECK: r0 = 0
// CHECK-NEXT: exit
