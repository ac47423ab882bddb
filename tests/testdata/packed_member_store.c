// Tests: a u64 member of a packed struct stored in an 8-aligned stack
// object is one 8-byte store, not eight shifted byte stores: cilium's
// packed union v6addr, copied as two u64 into its conntrack key, took 16
// byte stores per address (198 instructions against clang's 111).
// RUN: socket
// PACKET: ipv4-udp
// EXPECT: retval=1
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

union addr {
	struct { __u32 p1, p2; };
	__u64 d1;
	__u8 b[8];
} __attribute__((packed));

struct tuple {
	union addr saddr;
	union addr daddr;
	__u8 proto;
} __attribute__((packed));

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4);
	__type(key, struct tuple);
	__type(value, __u32);
} seen SEC(".maps");

static __always_inline void addr_copy(union addr *dst, const union addr *src)
{
	dst->d1 = src->d1;
}

SEC("socket")
int packed_member_store(struct __sk_buff *skb)
{
	struct tuple t __attribute__((aligned(8))) = {};
	union addr a;
	__u32 one = 1, *v;

	if (bpf_skb_load_bytes(skb, 12, &a, 8) < 0)
		return 0;
	addr_copy(&t.saddr, &a);
	a.d1 = a.d1 >> 32 | a.d1 << 32;
	addr_copy(&t.daddr, &a);
	t.proto = 17;
	bpf_map_update_elem(&seen, &t, &one, BPF_ANY);
	v = bpf_map_lookup_elem(&seen, &t);
	return v ? *v : 0;
}

char LICENSE[] SEC("license") = "GPL";

// The address's bytes are read and stored as words:
// CHECK: packed_member_store: (section socket,
// CHECK: r[[A:[0-9]]] = *(u64 *)(r10 - [[SRC:[0-9]+]])
// CHECK-NEXT: *(u64 *)(r10 - {{[0-9]+}}) = r[[A]]
// CHECK: *(u64 *)(r10 - [[SRC]]) = r[[C:[0-9]]]
// CHECK-NEXT: r[[B:[0-9]]] = *(u64 *)(r10 - [[SRC]])
// CHECK-NEXT: *(u64 *)(r10 - {{[0-9]+}}) = r[[B]]
