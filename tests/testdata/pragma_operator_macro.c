// Tests: a _Pragma whose operand macro expansion makes a string literal
// (`_Pragma(STRINGIFY(unroll(n)))`, datadog-agent's READ_INTO_BUFFER and
// USM_EVENTS_INIT) is accepted, as clang and gcc accept it ("expected
// string-literal" before), and reaches the loop after it when both are in
// a macro's body, expanded twice in one function: each 80-trip loop is
// unrolled, more trips than bpfcc unrolls on its own (the pragma was
// accepted and not applied: two loops were left).
// RUN: socket
// EXPECT: retval=22120
// ASM: "*= 79"
// ASM: -"goto -"
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define STRINGIFY(a) #a
#define UNROLLED(n) _Pragma(STRINGIFY(unroll(n)))
#define SUM(n, x)                          \
	UNROLLED(n)                        \
	for (int i = 0; i < (n); i++)      \
		s += i * (x);

const volatile __u32 k = 3;

SEC("socket")
int pragma_operator_macro(struct __sk_buff *skb)
{
	__u32 s = 0, x = k;

	SUM(80, x)
	SUM(80, x + 1)
	return s;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: pragma_operator_macro: (section socket,
// CHECK-NOT: goto
// CHECK: *= 79
// CHECK-NOT: goto
// CHECK: *= 79
// CHECK-NOT: goto
// CHECK: exit
