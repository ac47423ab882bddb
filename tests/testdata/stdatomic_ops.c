// Tests: <stdatomic.h> as a compiler provides it: the atomic types,
// memory_order, and the operations on the __c11_atomic_* builtins. (No
// atomic_load: clang 19 cannot select an atomic load for BPF, and no
// global of an atomic type: it writes their BTF as void, which the kernel
// rejects. <stdint.h>, which it includes, needs the glibc stub header in
// include/.)
// CFLAGS: -Iinclude
// RUN: socket
// EXPECT: retval=0
// EXPECT-VAR: counter=42
// EXPECT-VAR: total=3
#include <stdatomic.h>
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define CHECK(n, cond) do { if (!(cond)) return n; } while (0)

_Static_assert(memory_order_relaxed == __ATOMIC_RELAXED && memory_order_seq_cst == __ATOMIC_SEQ_CST, "memory_order");
_Static_assert(ATOMIC_INT_LOCK_FREE == 2 && ATOMIC_POINTER_LOCK_FREE == 2, "lock-free");
_Static_assert(sizeof(atomic_long) == 8 && sizeof(atomic_int) == 4, "sizes");

int counter;
long total;

#define C ((atomic_int *)&counter)
#define T ((atomic_long *)&total)

SEC("socket")
int stdatomic_ops(struct __sk_buff *skb)
{
	int old, expected;

	old = atomic_fetch_add_explicit(C, 5, memory_order_relaxed);
	CHECK(1, old == 0);
	atomic_fetch_add(T, 3);
	atomic_fetch_or(C, 0x10);
	CHECK(2, atomic_fetch_add(C, 0) == 0x15);
	CHECK(3, atomic_fetch_sub_explicit(T, 0, memory_order_relaxed) == 3);
	expected = 0x15;
	CHECK(4, atomic_compare_exchange_strong(C, &expected, 42) && expected == 0x15);
	CHECK(5, !atomic_compare_exchange_strong(C, &expected, 99) && expected == 42);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: r[[C:[0-9]]] = counter ll
// CHECK-NEXT: r[[V:[0-9]]] = 5
// CHECK-NEXT: w[[V]] = atomic_fetch_add(*(u32 *)(r[[C]] + 0), w[[V]])
// CHECK-NEXT: if w[[V]] != 0 goto
// CHECK-NEXT: r[[T:[0-9]]] = total ll
// CHECK-NEXT: r[[V:[0-9]]] = 3
// CHECK-NEXT: lock *(u64 *)(r[[T]] + 0) += r[[V]]
// CHECK-NEXT: r[[V:[0-9]]] = 16
// CHECK-NEXT: lock *(u32 *)(r[[C]] + 0) |= w[[V]]
// CHECK-NEXT: r[[V:[0-9]]] = 0
// CHECK-NEXT: w[[V]] = atomic_fetch_add(*(u32 *)(r[[C]] + 0), w[[V]])
// CHECK-NEXT: if w[[V]] != 21 goto
// CHECK-NEXT: r[[V:[0-9]]] = 0
// CHECK-NEXT: r[[V]] = atomic_fetch_add(*(u64 *)(r[[T]] + 0), r[[V]])
// CHECK-NEXT: if w[[V]] != 3 goto
// CHECK-NEXT: r0 = 21
// CHECK-NEXT: r[[V:[0-9]]] = 42
// CHECK-NEXT: w0 = cmpxchg(*(u32 *)(r[[C]] + 0), w0, w[[V]])
// CHECK-NEXT: if w0 != 21 goto
// CHECK-NEXT: r0 = 21
// CHECK-NEXT: r[[V:[0-9]]] = 99
// CHECK-NEXT: w0 = cmpxchg(*(u32 *)(r[[C]] + 0), w0, w[[V]])
// CHECK-NEXT: if w0 == 21 goto
// CHECK-NEXT: w[[E:[0-9]]] = w0
// CHECK-NEXT: if w[[E]] != 42 goto
