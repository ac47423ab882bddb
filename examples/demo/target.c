/*
 * target.c: a small program for bpfcc's --load examples and tests.
 *
 *	gcc -g -O2 -o /tmp/bpfcc-demo examples/demo/target.c
 *	/tmp/bpfcc-demo [CALLS [DELAY_US]]
 *
 * It calls process(size) CALLS times (default 800; 0 means forever), with
 * size = 1 << (i % 8): 1, 2, 4, ..., 128, 1, 2, ... so every eighth call has
 * the same size, and sleeps DELAY_US microseconds between calls (default 0).
 * For CALLS = 800 each of the 8 sizes is seen 100 times, which is what the
 * examples' tables and histograms show.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

volatile unsigned long sink;

/* noinline, noclone: the probe point must stay a real function. */
__attribute__((noinline, noclone)) long process(long size)
{
	long acc = 0;

	for (long i = 0; i < size; i++)
		acc += i ^ size;
	sink += acc;
	return acc;
}

int main(int argc, char **argv)
{
	long calls = argc > 1 ? atol(argv[1]) : 800;
	long delay = argc > 2 ? atol(argv[2]) : 0;
	long i;

	for (i = 0; calls == 0 || i < calls; i++) {
		process(1L << (i % 8));
		if (delay > 0)
			usleep(delay);
	}
	printf("%d: %ld calls\n", (int)getpid(), i);
	return 0;
}
