// Tests: const globals in .rodata: a lookup table indexed at run time, a
// const struct, and a volatile const the loader could rewrite.
// RUN: socket
// EXPECT: retval=0
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define CHECK(n, cond) do { if (!(cond)) return n; } while (0)

const __u16 squares[8] = { 0, 1, 4, 9, 16, 25, 36, 49 };
const struct { __u32 magic; __u8 ver; } hdr = { 0xfeedface, 3 };
const volatile __u32 tunable = 77;

SEC("socket")
int globals_rodata(struct __sk_buff *skb)
{
	__u32 i = skb->len & 7; /* 40 & 7 = 0 */
	__u32 sum = 0;

	CHECK(1, squares[i] == 0 && squares[(i + 5) & 7] == 25);
	for (int k = 0; k < 8; k++)
		sum += squares[k];
	CHECK(2, sum == 140);
	CHECK(3, hdr.magic == 0xfeedface && hdr.ver == 3);
	CHECK(4, tunable == 77);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: [[T:r[0-9]]] = squares ll
// CHECK: [[T]] += r{{[0-9]}}
// CHECK: = *(u16 *)([[T]] + 0)
// CHECK: [[P:r[0-9]]] = tunable ll
// CHECK-NEXT: = *(u32 *)([[P]] + 0)
