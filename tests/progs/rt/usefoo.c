/* usefoo: calls libfoo's foo_loop(1000) 3000 times (3,000,000 calls of foo_leaf in the library). */
#include <stdio.h>

unsigned long foo_loop(int n);

int
main(void)
{
	unsigned long s = 0;

	for (int r = 0; r < 3000; r++)
		s += foo_loop(1000);
	printf("%lu\n", s);
	return 0;
}
