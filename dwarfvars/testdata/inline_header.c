#include <stdio.h>
#include <stdlib.h>
int val = 1000;
static int shadow = 5;
volatile long sink;
static inline int bump(int d)
{
	static int hits;
	hits += d;
	sink += hits; /* L_bump */
	return hits;
}
__attribute__((noinline)) int scopes(int val)
{
	int shadow = val * 2;
	sink += shadow + val; /* L_s1 */
	{
		int val = shadow + 1;
		sink += val; /* L_s2 */
		{
			long shadow = val * 100L;
			sink += shadow; /* L_s3 */
		}
	}
	return shadow + bump(val) + bump(1);
}
int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 3;
	long t = 0;
	for (int i = 0; i < 2; i++) t += scopes(n + i) + bump(7);
	printf("%ld %d %d\n", t, val, shadow);
	return 0;
}
