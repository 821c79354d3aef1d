/* main.c: calls into lib/ and lib/deep/, whose sources live in other directories. */
#include <stdio.h>
#include <stdlib.h>
#include "shared.h"

static unsigned long
local_loop(int n)
{
	unsigned long s = 0;

	for (int i = 0; i < n * 900; i++)
		s = mix(s, (unsigned long)i);
	return s;
}

int
main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 30000;
	unsigned long s = 0;

	for (int r = 0; r < rounds; r++) {
		s += local_loop(3);
		s += lib_work(r % 9);
		if (r % 3 == 0)
			s += deep_work(r % 5);
	}
	printf("%lu\n", s);
	return 0;
}
