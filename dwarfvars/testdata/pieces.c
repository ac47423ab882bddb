/* A struct split into pieces (gcc -O2): at @p2 s.a is optimized out but
 * s.b, s.c, ... are not; at @p1 s.a is in a register. */
#include <stdio.h>
#include <stdlib.h>
struct st { int a; long b; short c; char d; unsigned e; };
struct pt { short x, y; };
volatile long sink;
__attribute__((noinline)) void use(long v) { __asm__ volatile("" :: "r"(v) : "memory"); }
__attribute__((noinline)) long pieces(int k, long m)
{
	struct st s;
	s.a = k * 3;
	s.b = m - 1;
	s.c = (short)(k - 100);
	s.d = 'Q';
	s.e = (unsigned)m * 7u;
	for (int i = 0; i < 2; i++) {
		use(s.a + i);
		use(s.b);       /* @p1 */
		s.a += s.c;
	}
	use(s.e + s.d); /* @p2 */
	return s.a + s.b;
}
__attribute__((noinline)) long small_pt(struct pt p, struct pt *q)
{
	struct pt r = { (short)(p.x + q->y), (short)(p.y - q->x) };
	use(r.x);
	use(r.y); /* @pt */
	use(p.x * p.y);
	return r.x * r.y;
}
int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 4;
	long t = 0;
	for (int i = 0; i < 2; i++) {
		t += pieces(n + i, 1000 + n);
		struct pt p = { (short)(-n - i), (short)(n * 1000) }, q = { 3, (short)(-7 - i) };
		t += small_pt(p, &q);
	}
	printf("%ld\n", t);
	return 0;
}
