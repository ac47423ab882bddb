// Tests: a branch whose two ways return the same constant with nothing
// else done on the way becomes a jump, so the comparison before it (here
// a memcmp expansion, byte loads and all) is dead: no byte is read.
// RUN: socket
// EXPECT: retval=1
// ASM: -"*(u8 *)"
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char key[8] = "abcdefg";
char buf[8];

SEC("socket")
int same_returns(struct __sk_buff *skb)
{
	if (__builtin_memcmp(buf, key, sizeof(key)) != 0)
		return 1;
	return 1;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: same_returns: (section socket, 2 insns, stack 0)
// CHECK-NOT: *(u8 *)
// CHECK: r0 = 1
// CHECK-NEXT: exit
