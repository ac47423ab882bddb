/* Main CU of the multi-CU target: calls into the other CUs (linked in, or
 * from the shared library built from m_a.c and m_b.c). */
#include <stdio.h>
#include <stdlib.h>
#include "multi.h"

static __attribute__((noinline)) long drive(struct rec *r, int n, int it)
{
	long got = alpha(r, n);
	got += beta(r, it); /* @drive_line */
	return got;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 3;
	struct rec r = { n, 1000L * n, { 5, (short)(n + 40) } };
	long s = 0;
	for (int it = 0; it < 3; it++) {
		r.id = n + it;
		s += drive(&r, n - 1 + it, it);
	}
	printf("%ld\n", s);
	return 0;
}
