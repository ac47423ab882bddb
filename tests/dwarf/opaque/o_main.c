/* A user of the library: struct state is only declared here. */
#include <stdio.h>
#include <stdlib.h>
#include "o_state.h"

__attribute__((noinline)) long step(state *L, int k)
{
	long r = k * 3;
	state_push(L, r); /* @opaque_line */
	state_push(L, r + 1);
	return state_sum(L) + r;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 2;
	state *L = state_new(2);
	long t = 0;
	for (int i = 0; i < n; i++)
		t += step(L, i);
	printf("%ld\n", t);
	return 0;
}
