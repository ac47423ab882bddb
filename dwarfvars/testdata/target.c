/* Test target for package dwarfvars: each function exercises one kind of
 * variable location. Built by the tests with gcc/clang at -O0..-O3. */
#include <stdlib.h>

struct point {
	int x;
	int y;
};

struct rec {
	long id;
	struct point pos;
	int arr[4];
	char name[8];
	struct rec *next;
};

int global_counter = 5;
static long static_total;

__attribute__((noinline)) int opaque(int v)
{
	__asm__ volatile("" : "+r"(v));
	return v;
}

/* A pointer to a struct read through member paths. */
__attribute__((noinline)) int scale(struct rec *r, int k)
{
	int s = r->pos.x * k + r->arr[2];
	global_counter += s;
	return opaque(s) + r->next->pos.y;
}

static inline int square(int v)
{
	static int squares; int sq = v * v; squares += sq; /* a static local of an inlined function */
	return opaque(sq);
}

/* Locals in a loop and a nested block, and an inlined function. */
__attribute__((noinline)) long sum_loop(int n)
{
	long total = 0;
	for (int i = 0; i < n; i++) {
		int sq = square(i + 1);
		total += sq;
		if (sq > 10) {
			int big = sq - 10;
			total += opaque(big);
		}
	}
	static_total += total;
	return total;
}

/* A parameter that is dead after the first call: at -O2 it is only
 * available as its entry value. */
__attribute__((noinline)) int use_entry(int a, int b)
{
	int r = opaque(b);
	r += opaque(r);
	return r;
}

/* A struct local that SRA splits into pieces. */
__attribute__((noinline)) int pieces(int a, int b)
{
	struct point p = { a * 2, b + 1 };
	int t = opaque(p.x);
	return t + opaque(p.y) + p.x;
}

/* More than six parameters: g and h are passed on the stack. */
__attribute__((noinline)) long many(int a, int b, int c, int d, int e, int f,
				    int g, int h)
{
	long m = (long)a * b + c - d + e * f;
	m += opaque(g) * (long)h;
	return m;
}

/* A static local and a char array. */
__attribute__((noinline)) int counter(const char *s)
{
	static int calls;
	char buf[8] = "abc";
	calls++;
	buf[0] = s[0];
	return opaque(buf[0] + buf[1] + calls);
}

/* Always called with mode == 3: gcc makes helper.constprop.0. */
static __attribute__((noinline)) int helper(int x, int mode)
{
	if (mode == 3)
		return opaque(x * 3);
	return opaque(x - mode);
}

/* A floating-point parameter: in xmm0, which pt_regs does not hold. */
__attribute__((noinline)) double fscale(double x, int n)
{
	double y = x * n;
	return y + opaque(n);
}

int main(int argc, char **argv)
{
	struct rec tail = { 2, { 7, 8 }, { 0, 0, 0, 0 }, "tail", 0 };
	struct rec head = { 1, { 3, 4 }, { 10, 20, 30, 40 }, "head", &tail };
	int n = argc + 4;
	long acc = 0;

	acc += scale(&head, n);
	acc += sum_loop(n);
	acc += use_entry(n, n + 1);
	acc += pieces(n, n + 2);
	acc += many(n, 2, 3, 4, 5, 6, n + 7, 8);
	acc += counter(argv[0]);
	acc += helper(n, 3);
	acc += helper(n + 1, 3);
	acc += (long)fscale(n, 3);
	return (int)(acc & 1) + global_counter * 0;
}
