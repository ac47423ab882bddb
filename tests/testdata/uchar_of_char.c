// Tests: `(unsigned char)c` of a plain (signed) char read from memory is
// the zero-extending byte load alone: no sign extension (two shifts below
// -mcpu=v4) followed by a mask that undoes it. The difference of two such
// bytes is still computed on 0..255, as C says (0xff - 0x31 > 0).
// RUN: socket
// EXPECT: retval=206
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char str[8] = { 0, (char)0xff, 0x31 };

SEC("socket")
int uchar_of_char(struct __sk_buff *skb)
{
	const char *s = str;
	int i = skb->len != 0xffffffff; /* 1, unknown to the compiler */

	return (unsigned char)s[i] - (unsigned char)s[i + 1];
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: uchar_of_char: (section socket,
// CHECK-NOT: <<= 56
// CHECK-NOT: &= 255
// CHECK: r[[A:[0-9]]] = *(u8 *)(r{{[0-9]}} + 0)
// CHECK: r[[B:[0-9]]] = *(u8 *)(r{{[0-9]}} + 0)
// CHECK-NEXT: w[[A]] -= w[[B]]
