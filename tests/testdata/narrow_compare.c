// Tests: an int compared with an unsigned long constant
// (`n > ARRAY_SIZE(a)`, where n is converted to unsigned long) is tested
// as the 32-bit comparison it equals, on n's own register, as clang does:
// the verifier then bounds n where it indexes the array. Comparing a
// sign-extended copy bounded only the copy.
// RUN: socket
// EXPECT: retval=0
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define ARRAY_SIZE(x) (sizeof(x) / sizeof((x)[0]))

struct {
	int n;
	unsigned int u;
	long l;
	int arr[9];
} data = { .n = 3, .u = 4, .l = -2, .arr = { 10, 11, 12, 13, 14, 15, 16, 17, 18 } };

SEC("socket")
int narrow_compare(struct __sk_buff *skb)
{
	int n = data.n;
	unsigned int u = data.u;

	if (n > ARRAY_SIZE(data.arr) - 1)
		return 1;
	if (data.arr[n] != 13)
		return 2;
	if (u >= ARRAY_SIZE(data.arr))
		return 3;
	if (data.arr[u] != 14)
		return 4;
	/* The same comparisons on values that fail them. */
	n = (int)data.l;
	if (!(n > ARRAY_SIZE(data.arr) - 1))
		return 5;
	if (!((long)n < 0L))
		return 6;
	if ((long)n < -2L)
		return 7;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: narrow_compare: (section socket,
// CHECK-NOT: s>>= 32
// CHECK: if w[[N:[0-9]]] > 8 goto
// CHECK: if w{{[0-9]}} >= 9 goto
