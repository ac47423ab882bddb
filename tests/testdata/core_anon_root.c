// Tests: a member access on an anonymous record under
// preserve_access_index, named by a typedef (vmlinux.h's siphash_key_t),
// is relocated through the typedef, as clang does: the loader finds the
// kernel's type by the root's name and refuses an anonymous root.
// RUN: socket
// EXPECT: retval=0
// ASM: "CO-RE <byte_off> siphash_key_t::key[1] (0:0:1)"
// ASM: -"struct (anon)::"
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

typedef struct {
	__u64 key[2];
} __attribute__((preserve_access_index)) siphash_key_t;

siphash_key_t k = { { 1, 2 } };

static __attribute__((noinline)) __u64 sum(const siphash_key_t *p)
{
	return p->key[0] + p->key[1];
}

SEC("socket")
int core_anon_root(struct __sk_buff *skb)
{
	return sum(&k) == 3 ? 0 : 1;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: sum: (section .text,
// CHECK: = *(u64 *)(r1 + 0)
// CHECK-NEXT: ; CO-RE <byte_off> siphash_key_t::key[0] (0:0:0)
// CHECK: = *(u64 *)(r1 + 8)
// CHECK-NEXT: ; CO-RE <byte_off> siphash_key_t::key[1] (0:0:1)
// CHECK-NOT: (anon)
