// Tests: memcpy and memset in a static inline helper whose size is a
// parameter (qemu's rss.bpf.c copies packet fields so): the size is a
// constant only once the helper is inlined, and the copy then becomes
// loads and stores as wide as the alignment allows.
// RUN: socket
// PACKET: ipv4-udp
// EXPECT: retval=1
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

static inline void copy(void *dst, const void *src, unsigned long n)
{
	__builtin_memcpy(dst, src, n);
}

static inline void fill(void *dst, int c, unsigned long n)
{
	__builtin_memset(dst, c, n);
}

struct pair {
	__u32 a;
	__u16 b;
	__u8 c[6];
};

volatile __u32 seed = 0x11223344;

SEC("socket")
int memcpy_inline_size(struct __sk_buff *skb)
{
	struct pair from = { .a = seed, .b = 7, .c = { 1, 2, 3, 4, 5, 6 } }, to;
	__u8 bytes[12];

	copy(&to, &from, sizeof(to));
	fill(bytes, seed & 0xff, sizeof(bytes));
	return to.a == 0x11223344 && to.b == 7 && to.c[5] == 6 && bytes[0] == 0x44 && bytes[11] == 0x44;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: memcpy_inline_size:
// CHECK-NOT: call
// CHECK: exit
