/* The library: the only unit that defines struct state. */
#include <stdlib.h>
#include "o_state.h"

struct state {
	int top;
	unsigned char flags : 3;
	unsigned char kind : 5;
	long base;
	long stack[8];
	struct state *parent;
};

state *state_new(int depth)
{
	state *L = calloc(1, sizeof *L);
	L->base = 100 * depth;
	L->kind = depth & 31;
	if (depth > 0)
		L->parent = state_new(depth - 1);
	return L;
}

void state_push(state *L, long v)
{
	L->stack[L->top & 7] = v + L->base;
	L->top++;
	L->flags = L->top & 7;
}

long state_sum(const state *L)
{
	long s = 0;
	for (int i = 0; i < 8; i++)
		s += L->stack[i];
	return s;
}
