/* gcc -O2: at @fp f's only location is the entry value of xmm1
 * (DW_OP_entry_value(DW_OP_regval_type xmm1)). */
#include <stdlib.h>
volatile long sink;
__attribute__((noinline)) double fp(double d, float f, int k)
{
	double r = d * f + k;
	sink += (long)r; /* @fp */
	return r;
}
int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 4;
	for (int it = 0; it < 2; it++)
		sink += (long)fp(1.5 + it, 2.25f, n);
	return 0;
}
