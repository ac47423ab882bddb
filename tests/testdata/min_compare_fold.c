// Tests: a compare of a select with one of its operands is decided at the
// join: `n = min(a, b); if (n <= a)` holds whichever arm set n (a itself,
// or b where a < b failed), as clang's instcombine folds it, and the code
// the test excludes goes. bpftune's tcp_nearly_out_of_memory kept two
// inlined copies of an event send after `min(U >> 2, x) <= U >> 2`: 2.09x
// clang's verified instructions. A 54-byte packet is 40 bytes past its
// Ethernet header, as a socket filter sees it: n is min(10, 50), 10.
// RUN: socket
// PACKET: zeros len=54
// EXPECT: retval=10
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define min(a, b) ((a) < (b) ? (a) : (b))

long out[4];

SEC("socket")
int min_compare_fold(struct __sk_buff *skb)
{
	unsigned long long lim = skb->len;
	long val = skb->len;
	long n = min(lim >> 2, val + (val >> 2));

	if (n <= (lim >> 2)) {
		out[0] = n;
		return n;
	}
	out[1] = val;
	out[2] = n;
	bpf_printk("x %ld %ld", n, val);
	bpf_printk("y %ld %ld", n, val);
	return 1;
}

char _license[] SEC("license") = "GPL";

// CHECK: if r[[A:[0-9]]] < r[[B:[0-9]]] goto
// CHECK-NOT: call 6
// CHECK-NOT: if r{{[0-9]}} <= r
