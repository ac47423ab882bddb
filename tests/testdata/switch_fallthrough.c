// Tests: switch fallthrough between cases, default in the middle, several
// labels on one statement, break inside nested blocks and a switch inside a
// loop where continue refers to the loop.
// RUN: socket
// EXPECT: retval=0
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define CHECK(n, cond) do { if (!(cond)) return n; } while (0)

static __attribute__((noinline)) int fall(int v)
{
	int r = 0;

	switch (v) {
	case 1:
		r += 1;
		/* fall through */
	case 2:
		r += 10;
		/* fall through */
	default:
		r += 100;
		break;
	case 5:
	case 6:
		r = 5;
		if (v == 6) {
			r = 6;
			break;
		}
		r += 1000;
	}
	return r;
}

SEC("socket")
int switch_fallthrough(struct __sk_buff *skb)
{
	int odd = 0;

	CHECK(1, fall(1) == 111 && fall(2) == 110 && fall(3) == 100);
	CHECK(2, fall(5) == 1005 && fall(6) == 6);
	for (int i = 0; i < 10; i++) {
		switch (i & 1) {
		case 0:
			continue;
		}
		odd++;
	}
	CHECK(3, odd == 5);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
