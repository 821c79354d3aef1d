/* calls.c: 200,000,000 calls of a leaf (make bench: the runtimes' cost per call; argv[1] overrides). */
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned long sink;

__attribute__((noinline)) void
leaf(unsigned long i)
{
	sink += i;
}

int
main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 200000000UL;

	for (unsigned long i = 0; i < n; i++)
		leaf(i);
	printf("%lu\n", sink);
	return 0;
}
