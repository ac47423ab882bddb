/* The target of TestLoadUserStack: main -> a -> b -> probed, run once a
 * line arrives on standard input (or at EOF); it prints "done" and then
 * waits for EOF, so that it is alive while bpfcc reads its mappings. */
#include <stdio.h>

volatile int sink;

int probed(int x)
{
	sink = x;
	return x + 1;
}

int b(int x)
{
	return probed(x * 2) + 1;
}

int a(int x)
{
	return b(x + 1) + 1;
}

int main(void)
{
	char line[64];
	int r;

	if (!fgets(line, sizeof(line), stdin))
		line[0] = 0;
	r = a(1);
	printf("done %d\n", r);
	fflush(stdout);
	while (fgets(line, sizeof(line), stdin))
		;
	return 0;
}
