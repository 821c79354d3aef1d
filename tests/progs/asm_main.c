/* asm_main.c: calls the functions of asm_x86.S. */
#include <stdio.h>

long asm_add(long, long);
long asm_loop(long);

static __attribute__((noinline)) long
hot(long n)
{
	long s = 0;

	for (long i = 0; i < n; i++)
		s = asm_add(s, asm_loop(i % 50));
	return s;
}

int
main(int argc, char **argv)
{
	(void)argv;
	printf("%ld\n", hot(argc > 1 ? 100000 : 20000));
	return 0;
}
