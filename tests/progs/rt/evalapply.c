/* evalapply: eval() and apply() call each other, as an interpreter's do; apply() calls heavy() for 99% of the time, eval() light() for 1%: the tree of the stacks reaches heavy through the cycle. */
#include <stdio.h>

static volatile unsigned long sink;

__attribute__((noinline)) void
heavy(long n)
{
	for (long i = 0; i < n; i++)
		sink += (unsigned long)i ^ (sink >> 3);
}

__attribute__((noinline)) void
light(long n)
{
	for (long i = 0; i < n; i++)
		sink += (unsigned long)i ^ (sink >> 5);
}

void apply(int depth, long n);

__attribute__((noinline)) void
eval(int depth, long n)
{
	light(n / 100);
	if (depth > 0)
		apply(depth - 1, n);
}

__attribute__((noinline)) void
apply(int depth, long n)
{
	heavy(n);
	if (depth > 0)
		eval(depth - 1, n);
}

int
main(void)
{
	for (int k = 0; k < 100; k++)
		eval(5, 1000000);
	printf("%lu\n", sink & 1);
	return 0;
}
