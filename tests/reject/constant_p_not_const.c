// Rejected: __builtin_constant_p of a value optimisation does not make a
// constant is 0 after inlining, so the trap it guards stays reachable, as
// with clang (libbpf's bpf_tail_call_static with a variable slot).
// ERROR: 11:3: __builtin_trap() is reachable
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

static __attribute__((always_inline)) int must_be_const(int x)
{
	if (!__builtin_constant_p(x))
		__builtin_trap();
	return x;
}

SEC("socket")
int constant_p_not_const(struct __sk_buff *skb)
{
	return must_be_const(skb->len);
}

char LICENSE[] SEC("license") = "GPL";
