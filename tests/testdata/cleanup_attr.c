// Tests: __attribute__((cleanup(fn))) calls fn with the variable's address
// when its block is left: at the end of the block, on break and continue
// (of the variables inside the loop body only), and on return (after the
// return value is computed). bpf_for destroys its iterator this way; the
// verifier rejects a program that leaks one.
// RUN: socket
// EXPECT: retval=0
// EXPECT-VAR: cleaned=1271
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define CHECK(n, cond) do { if (!(cond)) return n; } while (0)

/* The kernel's open-coded number iterator (struct and kfuncs as in
 * vmlinux.h), with a loop macro in the style of libbpf's bpf_for. */
struct bpf_iter_num { __u64 __opaque[1]; } __attribute__((aligned(8)));
extern int bpf_iter_num_new(struct bpf_iter_num *it, int start, int end) __ksym;
extern int *bpf_iter_num_next(struct bpf_iter_num *it) __ksym;
extern void bpf_iter_num_destroy(struct bpf_iter_num *it) __ksym;

#define num_for(v, from, to)								\
	for (struct bpf_iter_num it_ __attribute__((cleanup(bpf_iter_num_destroy))),	\
	     *p_ __attribute__((unused)) = (bpf_iter_num_new(&it_, (from), (to)), (void *)0); \
	     ({ int *n_ = bpf_iter_num_next(&it_); n_ && ((v) = *n_, 1); });)

int cleaned;

static void done(int *p)
{
	cleaned += *p;
}

static __attribute__((noinline)) int with_return(int x)
{
	int c __attribute__((cleanup(done))) = 100;

	if (x > 0)
		return c + x;	/* c's cleanup runs after c + x is taken */
	c = 200;
	return 0;
}

SEC("socket")
int cleanup_attr(struct __sk_buff *skb)
{
	int i, sum = 0, loops = 0;

	{
		int a __attribute__((cleanup(done))) = 1;
		{
			int b __attribute__((cleanup(done))) = 10;
			CHECK(1, cleaned == 0 && a + b == 11);
		}
		CHECK(2, cleaned == 10);
	}
	CHECK(3, cleaned == 11);
	for (i = 0; i < 4; i++) {
		int l __attribute__((cleanup(done))) = 20;
		loops++;
		if (i == 1)
			continue;
		if (i == 2)
			break;
	}
	CHECK(4, loops == 3 && cleaned == 71);
	CHECK(5, with_return(5) == 105 && cleaned == 171);
	CHECK(6, with_return(0) == 0 && cleaned == 371);
	num_for(i, 0, 10) {
		if (i == 7)
			break;
		sum += i;
	}
	CHECK(7, sum == 21);
	cleaned += 900;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
