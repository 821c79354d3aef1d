/* clonecalls: a static work() that -O2 keeps only as a clone (work.isra.0), called N times: a --diff rule names it work. */
#include <stdio.h>
#include <stdlib.h>

struct job {
	long pad[8];
	long n;
};

static volatile unsigned long sink;

/* Reads one field of *J: IPA-SRA passes that field instead, as work.isra.0. */
static __attribute__((noinline)) unsigned long
work(const struct job *j)
{
	unsigned long s = 0;

	for (long i = 0; i < j->n; i++)
		s += (unsigned long)i ^ (s >> 3);
	sink++;	/* not pure: each call runs */
	return s;
}

int
main(int argc, char **argv)
{
	long calls = argc > 1 ? atol(argv[1]) : 10;
	struct job j = { { 0 }, 1000 };

	for (long k = 0; k < calls; k++)
		sink += work(&j);
	printf("%lu\n", (unsigned long)sink & 1);
	return 0;
}
