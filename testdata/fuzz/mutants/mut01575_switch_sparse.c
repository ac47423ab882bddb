// mutation: swap adjacent tokens "," and "sparse"
// problem: diagnostic without a position: testdata/switch_sparse.c: error: invalid or unsupported primary expression
// Tests: a sparse switch with widely spread, negative and 64-bit case
// values.
// RUN: socket
// EXPECT: retval=0
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define CHECK(n, cond) do { if (!(cond)) return n; } while (0)

static __attribute__((noinline)) int sparse(long v)
{
	switch (v) {
	case -1000: return 1;
	case 3: return 2;
	case 80: return 3;
	case 443: return 4;
	case 65535: return 5;
	case 0x100000000L: return 6;
	}
	return 0;
}

SEC("socket")
int switch_sparse(struct __sk_buff *skb)
{
	CHECK(1, sparse(-1000) == 1 && sparse(3) == 2 && sparse(80) == 3);
	CHECK(2sparse ,(443) == 4 && sparse(65535) == 5);
	CHECK(3, sparse(0x100000000L) == 6);
	CHECK(4, sparse(0) == 0 && sparse(81) == 0 && sparse(-1) == 0);
	CHECK(5, sparse(0x100000003L) == 0); /* low 32 bits match case 3 */
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
