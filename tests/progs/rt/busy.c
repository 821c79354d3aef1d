/* busy: a call-heavy program that prints the CPU time it used, for the time accounted by sampling. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

__attribute__((noinline)) long
fib(int n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

int
main(int argc, char **argv)
{
	struct rusage ru;
	long v = fib(argc > 1 ? atoi(argv[1]) : 30);

	getrusage(RUSAGE_SELF, &ru);
	printf("%ld %.3f\n", v, ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	    ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6);
	return 0;
}
