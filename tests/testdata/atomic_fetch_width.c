// Tests: the value-returning atomics (__sync_fetch_and_*, *_and_fetch,
// __sync_val_compare_and_swap, __sync_lock_test_and_set, __atomic_fetch_*,
// __atomic_exchange_n) yield the pointed-to type: a 64-bit old value keeps
// its upper half, a 32-bit unsigned one is not sign-extended.
// RUN: socket
// EXPECT: retval=0
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

__u64 v64 = 0x100000005ULL;
__u32 v32 = 0x80000001u;

SEC("socket")
int atomic_fetch_width(struct __sk_buff *skb)
{
	__u64 r;

	r = __sync_fetch_and_add(&v64, 1);
	if (r != 0x100000005ULL)
		return 1;
	r = __sync_fetch_and_or(&v64, 0x10);
	if (r != 0x100000006ULL)
		return 2;
	r = __atomic_fetch_and(&v64, ~0ULL, __ATOMIC_SEQ_CST);
	if (r != 0x100000016ULL)
		return 3;
	r = __sync_val_compare_and_swap(&v64, 0x100000016ULL, 0x200000000ULL);
	if (r != 0x100000016ULL || v64 != 0x200000000ULL)
		return 4;
	r = __sync_lock_test_and_set(&v64, 7);
	if (r != 0x200000000ULL)
		return 5;
	r = __sync_fetch_and_add(&v32, 1);
	if (r != 0x80000001u)
		return 6;
	r = __sync_add_and_fetch(&v32, 1);
	if (r != 0x80000003u)
		return 7;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: r{{[0-9]}} = atomic_fetch_add(*(u64 *)(r{{[0-9]}} + 0), r{{[0-9]}})
// CHECK: r{{[0-9]}} = atomic_fetch_or(*(u64 *)
// CHECK: r{{[0-9]}} = atomic_fetch_and(*(u64 *)
// CHECK: r0 = cmpxchg(*(u64 *)
// CHECK: r{{[0-9]}} = xchg(*(u64 *)
// CHECK: w[[V:[0-9]]] = atomic_fetch_add(*(u32 *)(r{{[0-9]}} + 0), w{{[0-9]}})
// CHECK-NOT: w[[V]] <<= 32
// CHECK: w[[V:[0-9]]] = atomic_fetch_add(*(u32 *)(r{{[0-9]}} + 0), w{{[0-9]}})
