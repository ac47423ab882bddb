/* First library CU: alpha, a static helper (same name as m_b.c's) and a
 * static global named like m_b.c's. */
#include "multi.h"

int g_scale = 3;
static int tally = 100;

static __attribute__((noinline)) int helper(int x)
{
	int h = x * g_scale + tally;
	tally += h & 7; /* @helper_a */
	return h;
}

__attribute__((noinline)) int alpha(struct rec *r, int n)
{
	int acc = 0;
	for (int i = 0; i < n; i++) {
		acc += mix(r, i) + helper(i); /* @alpha_loop */
		r->span.lo += (short)i;
	}
	return acc;
}
