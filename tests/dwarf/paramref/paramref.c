/* gcc -O2 turns account into account.isra.0, which takes q's members
 * instead of q: q's location becomes DW_OP_GNU_parameter_ref, and its
 * two call sites give q's value, one as a register (an entry value at
 * the callee), one as a static address (tests/dwarf_lto_test.go). */
#include <stdlib.h>
struct req { long id; long size; int flags; char pad[64]; };
struct req g1 = { .id = 11, .size = 4, .flags = 1 };
struct req *volatile sink;

static __attribute__((noinline)) long account(struct req *q, long scale)
{
	long v = q->size * scale + q->id;
	return v ^ (v >> 3);
}

__attribute__((noinline)) long first(long n)
{
	g1.size = n;
	return account(&g1, 5) + 1;
}

__attribute__((noinline)) long second(struct req *p)
{
	long r = account(p, 9);
	sink = p;
	return r - 1;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 3, s = 0;
	struct req *h = calloc(1, sizeof *h);
	for (long i = 0; i < n; i++) {
		h->id = i + 100;
		h->size = i;
		s += first(i) + second(h);
	}
	return (int)(s & 1);
}
