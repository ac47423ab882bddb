// Tests: compound assignment to a bit-field narrower than int promotes it
// to int (C 6.3.1.1), and constant initialisers of _Bool members and
// array elements become 0 or 1.
// RUN: socket
// CLANG-CPU: v4
// EXPECT: retval=0
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define CHECK(n, cond) do { if (!(cond)) return n; } while (0)

struct S { unsigned int f : 24; };
struct B { _Bool b; };

SEC("socket")
int bitfield_promote(struct __sk_buff *skb)
{
	volatile int m = -1;
	struct S s = { .f = 65535 }, t = { .f = 65535 };
	_Bool a[2] = { 2147483647 }, c[2] = { 256 };
	struct B sb = { .b = 2 };
	_Bool d = 256;

	s.f /= m;
	t.f = t.f / m;
	CHECK(1, s.f == 0xff0001 && t.f == 0xff0001);
	s.f = 3;
	s.f -= 5;
	CHECK(2, s.f == 0xfffffe);
	CHECK(3, a[0] == 1 && a[1] == 0 && c[0] == 1 && sb.b == 1 && d == 1);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: w{{[0-9]}} /= w{{[0-9]}}
// CHECK: w{{[0-9]}} /= w{{[0-9]}}
// CHECK: <<= 40
// CHECK: if w{{[0-9]}} == 16777214 goto
