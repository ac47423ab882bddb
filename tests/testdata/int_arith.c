// Tests: int addition, subtraction, multiplication and unsigned wrap on
// values the compiler cannot fold (volatile locals).
// RUN: socket
// EXPECT: retval=0
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define CHECK(n, cond) do { if (!(cond)) return n; } while (0)

SEC("socket")
int int_arith(struct __sk_buff *skb)
{
	volatile int a = 7, b = -3;
	volatile unsigned int u = 0xfffffffeu;

	CHECK(1, a + b == 4);
	CHECK(2, a - b == 10);
	CHECK(3, a * b == -21);
	CHECK(4, u + 3 == 1);
	CHECK(5, (unsigned int)(u * 2) == 0xfffffffcu);
	CHECK(6, -a == -7);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
