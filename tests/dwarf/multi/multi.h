/* Shared by the compile units of the multi-CU target (tests/dwarf_e2e_test.go):
 * a struct type every CU uses, globals defined in one CU and used in others,
 * and a static inline helper inlined into functions of two CUs. */
#ifndef MULTI_H
#define MULTI_H

struct rec {
	int id;
	long weight;
	struct { short lo, hi; } span;
};

extern long g_hits;   /* defined in m_b.c, used in m_a.c and here */
extern int g_scale;   /* defined in m_a.c, used in m_b.c */

int alpha(struct rec *r, int n);
long beta(struct rec *r, int k);

static inline __attribute__((always_inline)) int mix(struct rec *r, int k)
{
	int t = r->id * k + (int)r->weight;
	g_hits += t + r->span.hi; /* @mix_line */
	return t;
}

#endif
