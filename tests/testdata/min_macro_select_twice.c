// Tests: a select a macro spells twice is one value: `min(U, GROW(x))`
// evaluates GROW(x), itself a ?:, once for the compare and again for the
// result, and the second copy is the tested register again (value numbers
// of selects: the same compare choosing between the same values), so
// `if (n <= U)` is decided at the join and the code after it goes
// (bpftune's tcp_buffer_tuner: tcp_enter_memory_pressure 1,098 -> 649
// verified instructions, clang 526). A 54-byte packet is 40 bytes past
// its Ethernet header: rate 4, GROW(40) = 42, n = min(10, 42) = 10.
// RUN: socket
// PACKET: zeros len=54
// EXPECT: retval=10
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define min(a, b) ((a) < (b) ? (a) : (b))
#define SHIFT(rate) ((rate) < 4 ? (rate) : 4)
#define GROW(v, rate) ((v) + ((v) >> SHIFT(rate)))

long out[4];

SEC("socket")
int min_macro_select_twice(struct __sk_buff *skb)
{
	unsigned long long lim = skb->len;
	long val = skb->len;
	unsigned int rate = skb->len / 10;
	long n = min(lim >> 2, GROW(val, rate));

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

// CHECK: if r{{[0-9]}} < r{{[0-9]}} goto
// CHECK-NOT: call 6
