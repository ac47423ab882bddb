/* Second library CU: beta, its own static helper and static tally, and the
 * definition of g_hits. */
#include "multi.h"

long g_hits;
static long tally = 7;

static __attribute__((noinline)) long helper(long y, int z)
{
	long v = y * z + g_scale;
	tally += v; /* @helper_b */
	return v + tally;
}

__attribute__((noinline)) long beta(struct rec *r, int k)
{
	long w = r->weight * g_scale;
	long m = mix(r, k + 1);
	w += helper(w, k); /* @beta_line */
	return w + m + r->span.lo;
}
