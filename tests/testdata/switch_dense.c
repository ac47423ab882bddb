// Tests: a dense switch (consecutive cases, a jump-table candidate) over a
// value the compiler cannot know, in a loop over all cases.
// RUN: socket
// EXPECT: retval=0
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define CHECK(n, cond) do { if (!(cond)) return n; } while (0)

static __attribute__((noinline)) int dense(int v)
{
	switch (v) {
	case 0: return 11;
	case 1: return 22;
	case 2: return 33;
	case 3: return 44;
	case 4: return 55;
	case 5: return 66;
	case 6: return 77;
	case 7: return 88;
	default: return -1;
	}
}

SEC("socket")
int switch_dense(struct __sk_buff *skb)
{
	int sum = 0;

	for (int i = -1; i <= 8; i++)
		sum += dense(i);
	CHECK(1, sum == 11 + 22 + 33 + 44 + 55 + 66 + 77 + 88 - 2);
	CHECK(2, dense(3) == 44 && dense(100) == -1 && dense(-100) == -1);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
