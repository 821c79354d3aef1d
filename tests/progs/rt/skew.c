/* skew: b() is called 100,000 times cheaply from a() and 10 times expensively from c(): gprof gives a() c()'s time. */
#include <stdio.h>

static volatile unsigned long sink;

__attribute__((noinline)) void
b(long n)
{
	for (long i = 0; i < n; i++)
		sink += (unsigned long)i ^ (sink >> 3);
}

/* About a tenth of b()'s time, in 100,000 calls. */
__attribute__((noinline)) void
a(long work)
{
	for (int k = 0; k < 100000; k++)
		b(work / 1000000);
}

/* About nine tenths, in 10 calls. */
__attribute__((noinline)) void
c(long work)
{
	for (int k = 0; k < 10; k++)
		b(work / 10 * 9 / 10 * 10 / 10);
}

int
main(int argc, char **argv)
{
	long work = 300000000;

	if (argc > 1 && sscanf(argv[1], "%ld", &work) != 1)
		return 2;
	a(work);
	c(work);
	printf("%lu\n", sink);
	return 0;
}
