/* Traced program for tests/dwarf_e2e_test.go. Every traced function is
 * called a known number of times with values derived from argv[1], so the
 * compiler cannot fold them away. Lines marked with a probe-marker comment
 * are probe points; the test finds them by their marker. */
#include <stdio.h>
#include <stdlib.h>

struct point { int x, y; };
struct inner { int b; int c; };
struct outer { int a0; struct inner a; long arr[4]; };

int g_counter;
static long s_total;

__attribute__((noinline)) int params(int a, long b, unsigned char c)
{
	return a + (int)b + c; /* @params_body */
}

__attribute__((noinline)) long loop_sum(int n, struct point *p)
{
	long acc = 0;
	for (int i = 0; i < n; i++) {
		acc += (long)p->x * i; /* @loop_body */
		g_counter++;
	}
	return acc;
}

__attribute__((noinline)) int nested(int v)
{
	int outer_l = v * 2;
	{
		int mid = outer_l + 1;
		{
			int deep = mid * 3;
			s_total += deep; /* @nested_deep */
			outer_l = deep - v;
		}
	}
	return outer_l;
}

__attribute__((noinline)) int use_struct(struct outer *o, int k)
{
	struct outer s = *o;
	s.a.b += k;
	s.arr[2] += k;
	g_counter += s.a.c; /* @struct_line */
	return s.a.b + (int)s.arr[2] + o->a0;
}

static inline __attribute__((always_inline)) int sq(int q)
{
	static int sq_sum; int t = q * q + 1; sq_sum += t; /* a static local of an inlined function */
	g_counter += t; /* @inline_line */
	return t;
}

__attribute__((noinline)) int call_inline(int z)
{
	return sq(z) + sq(z + 1);
}

__attribute__((noinline)) void sink(long x)
{
	__asm__ volatile("" : : "r"(x) : "memory");
}

__attribute__((noinline)) int entryval(int m, int w)
{
	sink(m * 7);
	sink(w); /* @entry_line */
	return w + 1;
}

__attribute__((noinline)) int constfold(int x)
{
	const int k = 42;
	int u = k * 2;
	sink(x + u); /* @const_line */
	return x;
}

/* Two parameters read through the entry values of two registers at one
 * line: every handler there must get both, whichever others it shares the
 * function with. */
__attribute__((noinline)) void sink2(long a, long b)
{
	__asm__ volatile("" : : "r"(a), "r"(b) : "memory");
}

__attribute__((noinline)) int entry2(int m, int w, int k)
{
	sink2(m * 7 + k, w * 3);
	sink(k); /* @entry2_line */
	return k + 1;
}

/* More than six integer parameters: a7 and a8 are passed on the stack, in
 * the caller's frame, readable from the first instruction on (before an
 * -O0 prologue has stored the register ones). */
__attribute__((noinline)) long eight(int a1, long a2, short a3, char a4, int a5, long a6, int a7, long a8)
{
	long r = a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8;
	g_counter += (int)r; /* @eight_line */
	return r * a7;
}

/* Inside an inlined body C scoping sees the inlined function's own names,
 * then file scope: in deeper() "depth" is the global, not the
 * parameter of the function it is inlined into. */
int depth = 1000;

static inline __attribute__((always_inline)) int deeper(int d)
{
	g_counter += depth + d; /* @inline_global */
	return d * 3;
}

__attribute__((noinline)) int shadows_global(int depth)
{
	return deeper(depth + 1) + depth;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 3;
	struct point pt = { n + 4, n + 5 };
	struct outer o = { n, { n * 10, n * 11 }, { 1, 2, n * 100, 4 } };
	long r = 0;
	for (int it = 0; it < 3; it++) {
		r += params(n + it, 1000L * (it + 1), (unsigned char)(200 + it));
		r += loop_sum(n + it, &pt);
		r += nested(n + it);
		r += use_struct(&o, it);
		r += call_inline(n + it);
		r += entryval(n + it, it + 5);
		r += constfold(it);
		r += entry2(n + it, it * 9 + 1, it + 2);
		r += shadows_global(n + it);
		r += eight(n + it, 2L + it, 3 + it, 4 + it, 5 + it, 6L + it, 7 + it, 80000000000L + it);
	}
	printf("%ld %d %ld\n", r, g_counter, s_total);
	return 0;
}
