/* libctime: clear() spends its time in the C library's memset and memcmp; prints its CPU time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

static char a[1 << 16], b[1 << 16];

__attribute__((noinline)) int
clear(int i)
{
	volatile int r;	/* no tail call: memcmp returns into clear */

	memset(a, i, sizeof a);
	memset(b, i, sizeof b);
	r = memcmp(a, b, sizeof a);
	return r;
}

int
main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 150000, sum = 0;
	struct rusage ru;

	for (long i = 0; i < n; i++)
		sum += clear((int)i);
	getrusage(RUSAGE_SELF, &ru);	/* printed: the CPU time (user + system, s) */
	printf("%ld %.3f\n", sum, ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
	    (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6);
	return 0;
}
