/*
 * clonefold: GCC clones next to the functions they were cloned from, for
 * the engine's clone folding.  Built with -O2 -fipa-cp-clone, GCC makes
 * hot.constprop.0 (hot stays for its pointer), checked.cold (the block
 * after a cold call) and split.part.0 (split stays: it is global).
 */
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned long sink;

__attribute__((noinline)) unsigned long
hot(int n, int k)
{
	unsigned long s = 0;

	for (int i = 0; i < n * 40; i++)
		s += (unsigned long)i / (unsigned)k ^ (s >> (k & 7));
	return s;
}

unsigned long (*volatile hot_ptr)(int, int) = hot;

static __attribute__((cold, noinline)) void
note(int n)
{
	sink += (unsigned long)n;
}

/* The block after the call to the cold note() goes to checked.cold. */
__attribute__((noinline)) unsigned long
checked(int n)
{
	unsigned long s = 0;

	if (n % 4 == 0) {
		note(n);
		for (int i = 0; i < n * 500; i++)
			s += (unsigned long)i * 5u ^ s;
	}
	for (int i = 0; i < n * 300; i++)
		s += (unsigned long)i * 3u;
	return s;
}

/* A quick exit in front of a big body: callers inline the test, call split.part.0. */
unsigned long
split(int n)
{
	if (__builtin_expect(n < 3, 1))
		return 1;
	unsigned long s = 0;
	for (int i = 0; i < n * 400; i++) {
		s += (unsigned long)i * (unsigned long)n;
		if (s == 1000000000007ULL)
			fprintf(stderr, "x%d", i);
		if (s == 1000000000033ULL)
			fprintf(stderr, "y%d", i);
	}
	return s;
}

unsigned long (*volatile split_ptr)(int) = split;

unsigned long
driver(int rounds)
{
	unsigned long s = 0;

	for (int r = 0; r < rounds; r++) {
		s += hot(r % 50, 9);
		s += hot_ptr(r % 50, 3);
		s += checked(r % 40);
		s += split(r % 30) + split_ptr(r % 20);
	}
	return s;
}

int
main(int argc, char **argv)
{
	sink = driver(argc > 1 ? atoi(argv[1]) : 5000);
	printf("%lu\n", sink);
	return 0;
}
