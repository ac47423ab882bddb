// Tests: string literals: char arrays initialised from literals, sizeof a
// literal, reading a literal through a pointer, and escape sequences.
// RUN: socket
// EXPECT: retval=0
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define CHECK(n, cond) do { if (!(cond)) return n; } while (0)

SEC("socket")
int string_literal(struct __sk_buff *skb)
{
	volatile int i = 2;
	char s[] = "hello";
	char padded[8] = "ab";
	const char *p = "xyz";
	int len = 0;

	CHECK(1, sizeof(s) == 6 && sizeof("abc") == 4);
	CHECK(2, s[0] == 'h' && s[4] == 'o' && s[5] == 0);
	/* The verifier keeps no value for a volatile int (as with clang's
	 * layout): the index is bounded by a mask. */
	CHECK(3, s[i & 3] == 'l');
	CHECK(4, padded[1] == 'b' && padded[2] == 0 && padded[7] == 0);
	CHECK(5, p[0] == 'x' && p[2] == 'z' && p[3] == 0);
	CHECK(6, "\x41\n\t\\"[0] == 'A' && "\x41\n\t\\"[1] == 10 && "\x41\n\t\\"[3] == '\\');
	for (int k = 0; k < 8 && s[k]; k++)
		len++;
	CHECK(7, len == 5);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: *(u32 *)(r10 - 16) = 1819043176
// CHECK-NEXT: *(u16 *)(r10 - 12) = 111
// CHECK-NEXT: r[[S:[0-9]]] = r10
// CHECK-NEXT: r[[S]] += -16
// CHECK-NEXT: r[[I:[0-9]]] = *(u32 *)(r10 - 4)
// CHECK-NEXT: w[[I]] &= 3
// CHECK: r[[S]] += r[[I]]
// CHECK-NEXT: r[[C:[0-9]]] = *(u8 *)(r[[S]] + 0)
// CHECK-NEXT: if w[[C]] == 108 goto
// CHECK-NEXT: r0 = 3
// CHECK-NOT: r0 =
// CHECK: r0 = 0
// CHECK-NEXT: exit
