/* isra: a static hot() that -O2 turns into hot.isra.0 (it reads one field of the structure it is given): tgprof's exports name it hot, as the browser does, not after the symbol before it. */
#include <stdio.h>

struct job {
	long pad[8];
	long n;
};

static volatile unsigned long sink;

static __attribute__((noinline)) unsigned long
hot(const struct job *j)
{
	unsigned long s = 0;

	for (long i = 0; i < j->n; i++)
		s += (unsigned long)i ^ (s >> 3);
	return s;
}

int
main(void)
{
	struct job j = { { 0 }, 300000000L };

	sink = hot(&j);
	printf("%lu\n", (unsigned long)sink & 1);
	return 0;
}
