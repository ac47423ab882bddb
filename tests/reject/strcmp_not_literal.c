// Rejected: __builtin_strcmp of a pointer no inlining makes a string
// literal: BPF has no strcmp, as with clang (a call to an undefined
// function).
// ERROR: 12:10: __builtin_strcmp is supported only of two string literals
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char name[8];

static __attribute__((noinline)) int is_init(const char *s)
{
	return !__builtin_strcmp(s, "init");
}

SEC("socket")
int strcmp_not_literal(struct __sk_buff *skb)
{
	return is_init(name);
}

char LICENSE[] SEC("license") = "GPL";
