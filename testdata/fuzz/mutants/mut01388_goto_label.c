// mutation: duplicate line 39
// problem: diagnostic without a position: testdata/goto_label.c: error: invalid or unsupported labeled statement
// Tests: goto forward (error-exit style), backward (a loop built from
// labels) and out of nested loops.
// RUN: socket
// EXPECT: retval=0
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define CHECK(n, cond) do { if (!(cond)) return n; } while (0)

static __attribute__((noinline)) int find(int want)
{
	int i, j;

	for (i = 0; i < 8; i++)
		for (j = 0; j < 8; j++)
			if (i * 8 + j == want)
				goto found;
	return -1;
found:
	return i * 100 + j;
}

SEC("socket")
int goto_label(struct __sk_buff *skb)
{
	int n = 0, err = 0;

again:
	n++;
	if (n < 5)
		goto again;
	CHECK(1, n == 5);
	CHECK(2, find(19) == 203 && find(99) == -1);
	if (n != 5) {
		err = 1;
		goto out;
	}
	err = 0;
out:
out:
	CHECK(3, err == 0);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
