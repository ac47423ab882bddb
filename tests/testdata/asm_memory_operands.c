// Tests: inline asm memory operands of register variables: an "m" input
// is read at the address of a stack slot the variable is stored to, a "+m"
// output is written there and read back, as clang spills the variable and
// prints the operand as (r10 - N) (tetragon's return_stack_error with
// "+m"(args): "asm output constraint not supported"; an "m" input was an
// internal compiler error). A 20-byte packet is 6 bytes past its Ethernet
// header, as a socket filter sees it: 6 * 2 read through "m", 6 + 5
// written through "+m": 23.
// RUN: socket
// PACKET: zeros len=20
// EXPECT: retval=23
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("socket")
int asm_memory_operands(struct __sk_buff *skb)
{
	unsigned long v = skb->len, w = skb->len * 2, o;

	asm volatile("%[o] = *(u64 *)%[w]" : [o] "=r"(o) : [w] "m"(w));
	asm volatile("r1 = *(u64 *)%[v]\n"
		     "r1 += 5\n"
		     "*(u64 *)%[v] = r1"
		     : [v] "+m"(v)
		     :
		     : "r1");
	return o + v;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: *(u64 *)(r{{[0-9]}} + 0) = r1
