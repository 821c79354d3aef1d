/* indirect: one call site calling sixteen functions in turn (libtgmon counts most in its hash table); prints its CPU time. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

static volatile unsigned long sink;

#define F(k) __attribute__((noinline)) void f##k(void) { sink += k; }
F(0) F(1) F(2) F(3) F(4) F(5) F(6) F(7) F(8) F(9) F(10) F(11) F(12) F(13) F(14) F(15)

static void (*volatile table[16])(void) = {
	f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15
};

__attribute__((noinline)) void
dispatch(long n)
{
	for (long i = 0; i < n; i++)
		table[i & 15]();
}

int
main(int argc, char **argv)
{
	struct rusage ru;

	dispatch(argc > 1 ? atol(argv[1]) : 150000000);
	getrusage(RUSAGE_SELF, &ru);	/* printed: the CPU time (user + system, s) */
	printf("%lu %.3f\n", sink, ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
	    (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6);
	return 0;
}
