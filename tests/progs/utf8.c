/* utf8: functions named in UTF-8, for the browser's drawing of wide names. */
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned long sink;

__attribute__((noinline)) void
café(int n)
{
	for (int i = 0; i < n * 20000; i++)
		sink += (unsigned long)i;
}

__attribute__((noinline)) void
計算(int n)
{
	for (int i = 0; i < n * 30000; i++)
		sink ^= (unsigned long)i;
}

int
main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 400;

	for (int r = 0; r < rounds; r++) {
		café(r % 7);
		計算(r % 5);
	}
	printf("%lu\n", sink);
	return 0;
}
