// Tests: while and do-while loops with break and continue; do-while runs
// its body at least once.
// RUN: socket
// EXPECT: retval=0
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define CHECK(n, cond) do { if (!(cond)) return n; } while (0)

SEC("socket")
int loop_while_do(struct __sk_buff *skb)
{
	volatile unsigned int seed = 0x12345678;
	unsigned int v = seed, bits = 0;
	int i = 0, runs = 0;

	while (v) {            /* popcount */
		bits += v & 1;
		v >>= 1;
	}
	CHECK(1, bits == 13);
	do {
		runs++;
	} while (runs < 0);
	CHECK(2, runs == 1);
	i = 0;
	while (1) {
		i++;
		if (i < 5)
			continue;
		if (i == 9)
			break;
	}
	CHECK(3, i == 9);
	i = 100;
	do {
		if (i % 7 == 0)
			break;
		i--;
	} while (i > 0);
	CHECK(4, i == 98);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
