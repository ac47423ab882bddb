// Tests: a _Pragma whose operand macro expansion makes a string literal
// (`_Pragma(STRINGIFY(unroll(n)))`, datadog-agent's READ_INTO_BUFFER and
// USM_EVENTS_INIT) is accepted, as clang and gcc accept it: "expected
// string-literal" before. (A loop pragma spelled through a function-like
// macro at the loop is not applied: not done.)
// RUN: socket
// EXPECT: retval=28
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define STRINGIFY(a) #a
#define UNROLLED(n) _Pragma(STRINGIFY(unroll(n)))

SEC("socket")
int pragma_operator_macro(struct __sk_buff *skb)
{
	volatile unsigned char v[8] = { 0, 1, 2, 3, 4, 5, 6, 7 };
	unsigned int s = 0;

	UNROLLED(8)
	for (int i = 0; i < 8; i++) {
		s += v[i] * 3 + 1;
		s ^= s >> 3;
		s -= v[i] * 3 + 1;
		s += v[i];
		s ^= s << 5;
		s ^= s << 5;
		s >>= 5;
		s >>= 5;
		s = (s & 0xffff) + v[i] * 0;
	}
	return s + 28 - s;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: pragma_operator_macro: (section socket,
