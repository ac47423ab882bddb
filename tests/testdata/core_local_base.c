// Tests: member stores to a local copy of a kernel record under
// preserve_access_index (vmlinux.h's types: test_tunnel_kern.c's
// `struct bpf_tunnel_key key`) carry CO-RE relocations, so they address
// the record through a register; that register is computed once, as clang
// does, not once per member.
// RUN: socket
// EXPECT: retval=0
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

/* The kernel's struct bpf_tunnel_key, as vmlinux.h declares it. */
struct bpf_tunnel_key___local {
	__u32 tunnel_id;
	union {
		__u32 remote_ipv4;
		__u32 remote_ipv6[4];
	};
	__u8 tunnel_tos;
	__u8 tunnel_ttl;
	union {
		__u16 tunnel_ext;
		__u16 tunnel_flags;
	};
	__u32 tunnel_label;
} __attribute__((preserve_access_index));

static __attribute__((noinline)) int check(struct bpf_tunnel_key___local *k)
{
	return k->tunnel_id == 2 && k->tunnel_ttl == 64 && k->tunnel_label == 7 ? 0 : 1;
}

SEC("socket")
int core_local_base(struct __sk_buff *skb)
{
	struct bpf_tunnel_key___local key;

	__builtin_memset(&key, 0, sizeof(key));
	key.tunnel_id = 2;
	key.tunnel_tos = 0;
	key.tunnel_ttl = 64;
	key.tunnel_label = 7;
	return check(&key);
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: core_local_base: (section socket,
// CHECK: r[[K:[0-9]]] = r10
// CHECK-NEXT: r[[K]] += -{{[0-9]+}}
// CHECK-NOT: = r10
// CHECK: *(u32 *)(r[[K]] + 0) =
// CHECK-NEXT: CO-RE <byte_off> struct bpf_tunnel_key___local::tunnel_id
// CHECK-NOT: = r10
// CHECK: *(u8 *)(r[[K]] + 21) =
// CHECK-NOT: = r10
// CHECK: *(u32 *)(r[[K]] + 24) =
// CHECK-NOT: = r10
// CHECK: call check
