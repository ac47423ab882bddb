// Tests: for loops with break and continue, a loop bound the compiler cannot
// know (skb->len), and a loop that runs zero times.
// RUN: socket
// PACKET: ipv4-udp payload=12
// EXPECT: retval=0
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define CHECK(n, cond) do { if (!(cond)) return n; } while (0)

SEC("socket")
int loop_for(struct __sk_buff *skb)
{
	__u32 n = skb->len; /* 20 + 8 + 12 = 40 */
	int sum = 0, evens = 0, i;

	for (i = 0; i < 64; i++) {
		if (i >= n)
			break;
		if (i % 2)
			continue;
		evens++;
		sum += i;
	}
	CHECK(1, i == 40);
	CHECK(2, evens == 20 && sum == 380);
	sum = 0;
	for (i = n; i < 10; i++)
		sum++;
	CHECK(3, sum == 0);
	for (i = 0;; i++)
		if (i * i > n)
			break;
	CHECK(4, i == 7);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
