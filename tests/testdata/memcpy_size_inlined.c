// Tests: a __builtin_memcpy whose size is a parameter of an always-inline
// function compiles where inlining makes the copy dead (the READ_ONCE size
// switch of samples/bpf's xdp_sample.bpf.h). (A size that only inlining
// makes constant, reaching the copy, is not supported yet.)
// RUN: socket
// EXPECT: retval=0
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

static __attribute__((always_inline)) void read_once(const volatile void *p, void *res, int size)
{
	switch (size) {
	case 1: *(__u8 *)res = *(volatile __u8 *)p; break;
	case 4: *(__u32 *)res = *(volatile __u32 *)p; break;
	case 8: *(__u64 *)res = *(volatile __u64 *)p; break;
	default:
		__builtin_memcpy(res, (const void *)p, size);
	}
}

SEC("socket")
int memcpy_size_inlined(struct __sk_buff *skb)
{
	__u32 x = 0x11223344, y = 0;
	__u64 w = 0x0102030405060708ULL, z = 0;

	read_once(&x, &y, sizeof(y));
	read_once(&w, &z, sizeof(z));
	if (y != 0x11223344)
		return 1;
	if (z != 0x0102030405060708ULL)
		return 2;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK-NOT: call
// CHECK: r[[Y:[0-9]]] = *(u32 *)(r10 - 8)
// CHECK-NEXT: r[[Z:[0-9]]] = *(u64 *)(r10 - 16)
// CHECK-NEXT: if w[[Y]] != 287454020 goto
// CHECK-NEXT: r[[C:[0-9]]] = 72623859790382856 ll
// CHECK-NEXT: if r[[Z]] == r[[C]] goto
// CHECK-NOT: call
