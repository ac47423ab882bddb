// Tests: bpf_core_field_exists() of a member of a local object, not
// through a pointer, relocates as clang relocates it: the relocation's
// root is the object's type (tracee's capabilities.h,
// `kernel_cap_t___older to; if (bpf_core_field_exists(to.cap))`, was an
// error). The kernel's sk_buff has len and no such_field.
// RUN: socket
// PACKET: ipv4-udp
// EXPECT: retval=1
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

struct sk_buff___local {
	unsigned int len;
	int such_field;
} __attribute__((preserve_access_index));

SEC("socket")
int core_exists_member(struct __sk_buff *skb)
{
	struct sk_buff___local local = {};

	return bpf_core_field_exists(local.len) * 1 + bpf_core_field_exists(local.such_field) * 2;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: r0 = 1
// CHECK-NEXT: ; CO-RE <field_exists> struct sk_buff___local::len (0:0)
// CHECK-NEXT: r1 = 1
// CHECK-NEXT: ; CO-RE <field_exists> struct sk_buff___local::such_field (0:1)
