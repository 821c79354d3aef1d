/* util.c: the middle layer. */
#include "shared.h"

static unsigned long
helper(int k)
{
	unsigned long s = 0;

	for (int i = 0; i < k * 400; i++)
		s = mix(s, (unsigned long)k);
	return s;
}

unsigned long
lib_work(int n)
{
	unsigned long s = 0;

	for (int i = 0; i < n; i++)
		s += helper(i);
	return s + deep_work(n % 3);
}
