// Tests: a function that returns a call to itself is a loop, as clang's
// tail-call elimination makes it: its arguments are stored to the
// parameters and the body starts again (bpf-developer-tutorial's
// xx_hash.h: `return len > 0 ? finalize(...) : h;`, refused before as
// recursion). Here the bytes are volatile, so the loop runs: with a
// constant length it unrolls. A call that is not the returned value is
// still recursion (reject/recursion.c).
// RUN: socket
// EXPECT: retval=816352900
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

static __always_inline unsigned int finalize(unsigned int h, const volatile unsigned char *p, unsigned int len)
{
	return len > 0 ? finalize((h ^ *p) * 0x9E3779B1U, p + 1, len - 1) : h;
}

static __attribute__((noinline)) unsigned int count_down(unsigned int n, unsigned int acc)
{
	if (n == 0)
		return acc;
	return count_down(n - 1, acc + n);
}

SEC("socket")
int tail_self_call(struct __sk_buff *skb)
{
	volatile unsigned char buf[4] = { 1, 2, 3, 4 };

	if (count_down(10, 0) != 55)
		return -1;
	return finalize(0, buf, sizeof(buf));
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: count_down: (section .text,
// CHECK: goto -
// CHECK: tail_self_call: (section socket,
