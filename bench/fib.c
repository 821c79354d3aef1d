/* fib.c: recursive fib(N) (make bench: the runtimes' cost per call; 2 fib(N+1) - 1 calls). */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline, noipa)) long
fib(int n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

int
main(int argc, char **argv)
{
	printf("%ld\n", fib(argc > 1 ? atoi(argv[1]) : 35));
	return 0;
}
