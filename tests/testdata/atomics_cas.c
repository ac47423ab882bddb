// Tests: __sync_val_compare_and_swap (success and failure), __atomic_fetch_add,
// __atomic_exchange_n and 32-bit atomics on map values.
// RUN: socket
// EXPECT: retval=0
// EXPECT-MAP: cells key=0 value=hex:2a000000000000000700000009000000
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define CHECK(n, cond) do { if (!(cond)) return n; } while (0)

struct cell { __u64 q; __u32 a; __u32 b; };

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct cell);
} cells SEC(".maps");

SEC("socket")
int atomics_cas(struct __sk_buff *skb)
{
	__u32 key = 0;
	struct cell *c = bpf_map_lookup_elem(&cells, &key);
	__u64 old;
	__u32 old32;

	if (!c)
		return 100;
	c->q = 5;
	old = __sync_val_compare_and_swap(&c->q, 5, 42);
	CHECK(1, old == 5 && c->q == 42);
	old = __sync_val_compare_and_swap(&c->q, 5, 99);
	CHECK(2, old == 42 && c->q == 42);
	c->a = 3;
	old32 = __atomic_fetch_add(&c->a, 4, __ATOMIC_SEQ_CST);
	CHECK(3, old32 == 3 && c->a == 7);
	c->b = 1;
	old32 = __atomic_exchange_n(&c->b, 9, __ATOMIC_SEQ_CST);
	CHECK(4, old32 == 1 && c->b == 9);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: call 1
// CHECK: r0 = 5
// CHECK: r0 = cmpxchg(*(u64 *)([[P:r[0-9]]] + 0), r0, r{{[0-9]}})
// CHECK-NEXT: if r0 != 5 goto
// CHECK: r0 = cmpxchg(*(u64 *)([[P]] + 0), r0, r{{[0-9]}})
// CHECK: w{{[0-9]}} = atomic_fetch_add(*(u32 *)([[P]] + 8), w{{[0-9]}})
// CHECK: w{{[0-9]}} = xchg(*(u32 *)([[P]] + 12), w{{[0-9]}})
