// Tests: attributes after a function definition's declarator, the syntax
// test_btf_decl_tag.c uses (int f(int x __tag) __tag {): the function
// compiles, a BPF call as its noinline asks.
// RUN: socket
// EXPECT: retval=42
// ASM: "call add_one"
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define __tag __attribute__((btf_decl_tag("tag")))

static __attribute__((noinline)) int add_one(int x __tag) __tag
{
	return x + 1;
}

SEC("socket")
int fn_attrs_after_declarator(struct __sk_buff *skb)
{
	return add_one(41);
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: add_one: (section .text,
// CHECK: fn_attrs_after_declarator: (section socket,
// CHECK: r1 = 41
// CHECK-NEXT: call add_one
