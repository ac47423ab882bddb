// Tests: nested loops where break and continue refer to the innermost loop,
// with loop-carried values across both levels.
// RUN: socket
// EXPECT: retval=0
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define CHECK(n, cond) do { if (!(cond)) return n; } while (0)

SEC("socket")
int nested_loops(struct __sk_buff *skb)
{
	int sum = 0, primes = 0;

	for (int i = 0; i < 6; i++) {
		for (int j = 0; j < 7; j++) {
			if (j > i)
				break;
			if ((i + j) % 3 == 0)
				continue;
			sum += i * j;
		}
	}
	CHECK(1, sum == 96);
	for (int n = 2; n < 30; n++) {
		int d = 2;
		while (d * d <= n) {
			if (n % d == 0)
				break;
			d++;
		}
		if (d * d > n)
			primes++;
	}
	CHECK(2, primes == 10);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
