// Tests: btf_decl_tag on parameters reaches the BTF of the function
// (libbpf's __arg_ctx): the verifier then lets a global function take the
// context as void *, which it otherwise rejects as an unknown-size argument.
// RUN: tc
// EXPECT: retval=1
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define __arg_ctx __attribute__((btf_decl_tag("arg:ctx")))

__attribute__((noinline)) int get_mark(void *ctx __arg_ctx)
{
	struct __sk_buff *skb = ctx;

	return skb->mark + 1;
}

SEC("tc")
int global_arg_ctx(struct __sk_buff *skb)
{
	return get_mark(skb);
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: get_mark: (section .text,
// CHECK: r0 = *(u32 *)(r1 + 8)
// CHECK: global_arg_ctx: (section tc,
// CHECK-NOT: r1 =
// CHECK: call get_mark
