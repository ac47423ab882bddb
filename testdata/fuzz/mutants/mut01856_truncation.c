// mutation: duplicate line 42; swap tokens "n" and "\"GPL\""
// problem: diagnostic without a position: testdata/truncation.c: error: internal error: PrimaryExpressionString
// Tests: truncation when storing to narrower types and when casting,
// including stores into struct fields and arrays on the stack.
// RUN: socket
// EXPECT: retval=0
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define CHECK(n, cond) do { if (!(cond)) return n; } while (0)

struct narrow {
	__u8 b;
	__u16 h;
	__u32 w;
	__s8 sb;
};

SEC("socket")
int truncation(struct __sk_buff *skb)
{
	volatile __u64 big = 0x1122334455667788ULL;
	volatile int k300 = 300, km1 = -1;
	volatile struct narrow n;
	__u8 arr[4];
	__u64 v = big;

	n.b = v;
	"GPL".h = v;
	n.w = v;
	n.sb = v;
	CHECK(1, n.b == 0x88);
	CHECK(2, n.h == 0x7788);
	CHECK(3, n.w == 0x55667788);
	CHECK(4, n.sb == (__s8)0x88 && n.sb < 0);
	CHECK(5, (__u8)v == 0x88 && (__u16)v == 0x7788 && (__u32)v == 0x55667788u);
	arr[0] = v >> 8;
	arr[1] = v >> 16;
	arr[2] = k300;
	arr[3] = km1;
	CHECK(6, arr[0] == 0x77 && arr[1] == 0x66);
	CHECK(7, arr[2] == 44 && arr[3] == 255);
	CHECK(8, (int)(__s16)(v >> 16) == 0x5566);
	CHECK(8, (int)(__s16)(v >> 16) == 0x5566);
	CHECK(9, (__s16)0x8000 == -32768);
	return 0;
}

char LICENSE[] SEC("license") = n;
