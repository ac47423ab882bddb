// Tests: a function with 900 inlined copies of a compare whose length is a
// constant parameter (datadog-agent's bpf_memcmp: the length is changed
// first under a condition false for every length used, then switched on,
// with __builtin_trap() in the default) has each switch folded: 18,001
// blocks × 45,608 registers, over the bound propagation ran under before,
// and the trap was reported reachable.
// RUN: socket
// EXPECT: retval=600
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

static __always_inline __u64 cmp(const void *x, const void *y, __u64 len)
{
	__u64 r = 0;

	if (!__builtin_constant_p(len))
		__builtin_trap();
	x += len;
	y += len;
	if (len > 1 && len % 2 == 1) {
		x -= 1;
		y -= 1;
		r |= *(__u8 *)x ^ *(__u8 *)y;
		len -= 1;
	}
	switch (len) {
	case 8: x -= 8; y -= 8; r |= *(__u64 *)x ^ *(__u64 *)y; break;
	case 4: x -= 4; y -= 4; r |= *(__u32 *)x ^ *(__u32 *)y; break;
	case 2: x -= 2; y -= 2; r |= *(__u16 *)x ^ *(__u16 *)y; break;
	case 1: x -= 1; y -= 1; r |= *(__u8 *)x ^ *(__u8 *)y; break;
	default: __builtin_trap();
	}
	return r;
}

#define ONE r += !cmp(a, b, 8); r += !cmp(a + 8, b + 8, 4); r += !cmp(a + 4, b + 4, 2);
#define R10(x) x x x x x x x x x x
#define R100 R10(R10(ONE))

SEC("socket")
int fold_many_inlined(struct __sk_buff *skb)
{
	char a[16] __attribute__((aligned(8))) = {}, b[16] __attribute__((aligned(8))) = {};
	int r = 0;

	bpf_skb_load_bytes(skb, 0, a, sizeof(a));
	bpf_skb_load_bytes(skb, 0, b, sizeof(b));
	b[0] ^= 1;
	R100 R100 R100
	return r;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: fold_many_inlined: (section socket,
// CHECK-NOT: call
// CHECK: call 26
// CHECK: call 26
// CHECK-NOT: call
