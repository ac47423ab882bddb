// Tests: __sync_fetch_and_add/or/and/xor on a map value: returned old values
// and the final memory contents (BPF atomic instructions).
// RUN: socket
// EXPECT: retval=0
// EXPECT-MAP: vals key=0 value=0x1f3
// ASM: "atomic_fetch_add("
// ASM: "atomic_fetch_xor("
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define CHECK(n, cond) do { if (!(cond)) return n; } while (0)

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} vals SEC(".maps");

SEC("socket")
int atomics_sync(struct __sk_buff *skb)
{
	__u32 key = 0;
	__u64 *v = bpf_map_lookup_elem(&vals, &key), old;

	if (!v)
		return 100;
	*v = 0x100;
	old = __sync_fetch_and_add(v, 0x10);
	CHECK(1, old == 0x100 && *v == 0x110);
	old = __sync_fetch_and_or(v, 0x0f);
	CHECK(2, old == 0x110 && *v == 0x11f);
	old = __sync_fetch_and_and(v, 0x1f0);
	CHECK(3, old == 0x11f && *v == 0x110);
	old = __sync_fetch_and_xor(v, 0x0e3);
	CHECK(4, old == 0x110 && *v == 0x1f3);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: r[[V:[0-9]]] = 16
// CHECK-NEXT: r[[V]] = atomic_fetch_add(*(u64 *)([[P:r[0-9]]] + 0), r[[V]])
// CHECK-NEXT: if r[[V]] != 256 goto
// CHECK: r[[V:[0-9]]] = 15
// CHECK-NEXT: r[[V]] = atomic_fetch_or(*(u64 *)([[P]] + 0), r[[V]])
// CHECK: r[[V:[0-9]]] = 496
// CHECK-NEXT: r[[V]] = atomic_fetch_and(*(u64 *)([[P]] + 0), r[[V]])
// CHECK: r[[V:[0-9]]] = 227
// CHECK-NEXT: r[[V]] = atomic_fetch_xor(*(u64 *)([[P]] + 0), r[[V]])
