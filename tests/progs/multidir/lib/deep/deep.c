/* deep.c: the bottom layer, two directories down. */
#include "shared.h"

static unsigned long
helper(int k)
{
	unsigned long s = 1;

	for (int i = 0; i < k * 700; i++)
		s = mix(s, s >> 3);
	return s;
}

unsigned long
deep_work(int n)
{
	unsigned long s = 0;

	if (n == 0)
		return 1;
	s += helper(n);
	return s + deep_work(n - 1);
}
