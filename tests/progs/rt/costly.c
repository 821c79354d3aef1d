/* costly: work() called 10,000 times cheaply from cheap() and 10 times expensively from costly(): gprof gives cheap() costly()'s time. */
#include <stdio.h>

static volatile unsigned long sink;

__attribute__((noinline)) void
work(long n)
{
	for (long i = 0; i < n; i++)
		sink += (unsigned long)i ^ (sink >> 3);
}

/* About 3% of work()'s time, in 10,000 calls. */
__attribute__((noinline)) void
cheap(long total)
{
	for (int k = 0; k < 10000; k++)
		work(total / 10000 * 3 / 100);
}

/* About 97%, in 10 calls. */
__attribute__((noinline)) void
costly(long total)
{
	for (int k = 0; k < 10; k++)
		work(total / 10 * 97 / 100);
}

int
main(int argc, char **argv)
{
	long total = 300000000;

	if (argc > 1 && sscanf(argv[1], "%ld", &total) != 1)
		return 2;
	cheap(total);
	costly(total);
	printf("%lu\n", sink);
	return 0;
}
