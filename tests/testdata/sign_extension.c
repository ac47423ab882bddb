// Tests: sign extension of signed narrow types and zero extension of
// unsigned ones when widened to int and to 64 bits, in registers and
// through loads from the stack.
// RUN: socket
// EXPECT: retval=0
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define CHECK(n, cond) do { if (!(cond)) return n; } while (0)

SEC("socket")
int sign_extension(struct __sk_buff *skb)
{
	volatile __s8 s8 = -2;
	volatile __u8 u8 = 0xfe;
	volatile __s16 s16 = -3;
	volatile __u16 u16 = 0xfffd;
	volatile __s32 s32 = -4;
	volatile __u32 u32 = 0xfffffffc;
	__s64 w;
	__u64 uw;

	w = s8;
	CHECK(1, w == -2);
	uw = u8;
	CHECK(2, uw == 0xfe);
	w = s16;
	CHECK(3, w == -3);
	uw = u16;
	CHECK(4, uw == 0xfffd);
	w = s32;
	CHECK(5, w == -4);
	uw = u32;
	CHECK(6, uw == 0xfffffffcULL);
	uw = (__u64)s32; /* sign-extend, then reinterpret */
	CHECK(7, uw == 0xfffffffffffffffcULL);
	uw = (__u32)s32;
	CHECK(8, uw == 0xfffffffcULL);
	w = (__s8)u8;
	CHECK(9, w == -2);
	w = (__s16)u16;
	CHECK(10, w == -3);
	CHECK(11, (int)s8 == -2 && (int)u8 == 254);
	CHECK(12, (long)(__s32)u32 == -4L);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: r[[A:[0-9]]] = *(u8 *)(r10 - 1)
// CHECK-NEXT: r[[A]] <<= 56
// CHECK-NEXT: r[[A]] s>>= 56
// CHECK-NEXT: if r[[A]] != -2 goto
// CHECK-NEXT: r[[A:[0-9]]] = *(u8 *)(r10 - 2)
// CHECK-NEXT: if r[[A]] != 254 goto
// CHECK-NEXT: r[[A:[0-9]]] = *(u16 *)(r10 - 4)
// CHECK-NEXT: r[[A]] <<= 48
// CHECK-NEXT: r[[A]] s>>= 48
// CHECK-NEXT: if r[[A]] != -3 goto
// CHECK-NEXT: r[[A:[0-9]]] = *(u16 *)(r10 - 6)
// CHECK-NEXT: if r[[A]] != 65533 goto
// CHECK-NEXT: r[[A:[0-9]]] = *(u32 *)(r10 - 12)
// CHECK-NEXT: r[[A]] <<= 32
// CHECK-NEXT: r[[A]] s>>= 32
// CHECK-NEXT: if r[[A]] != -4 goto
// CHECK-NEXT: r[[A:[0-9]]] = *(u32 *)(r10 - 16)
// CHECK-NEXT: w[[C:[0-9]]] = -4
// CHECK-NEXT: if r[[A]] != r[[C]] goto
// CHECK-NEXT: r[[A:[0-9]]] = *(u32 *)(r10 - 12)
// CHECK-NEXT: r[[A]] <<= 32
// CHECK-NEXT: r[[A]] s>>= 32
// CHECK-NEXT: if r[[A]] != -4 goto
// CHECK-NEXT: r[[A:[0-9]]] = *(u32 *)(r10 - 12)
// CHECK-NEXT: w[[C:[0-9]]] = -4
// CHECK-NEXT: if r[[A]] != r[[C]] goto
// CHECK-NEXT: r[[A:[0-9]]] = *(u8 *)(r10 - 2)
// CHECK-NEXT: r[[A]] <<= 56
// CHECK-NEXT: r[[A]] s>>= 56
// CHECK-NEXT: if r[[A]] != -2 goto
// CHECK-NEXT: r[[A:[0-9]]] = *(u16 *)(r10 - 6)
// CHECK-NEXT: r[[A]] <<= 48
// CHECK-NEXT: r[[A]] s>>= 48
// CHECK-NEXT: if r[[A]] != -3 goto
// CHECK-NEXT: r[[A:[0-9]]] = *(u8 *)(r10 - 1)
// CHECK-NEXT: if w[[A]] != 254 goto
// CHECK-NEXT: r[[A:[0-9]]] = *(u8 *)(r10 - 2)
// CHECK-NEXT: if w[[A]] != 254 goto
// CHECK-NEXT: r[[A:[0-9]]] = *(u32 *)(r10 - 16)
// CHECK-NEXT: r[[A]] <<= 32
// CHECK-NEXT: r[[A]] s>>= 32
// CHECK-NEXT: if r[[A]] != -4 goto
