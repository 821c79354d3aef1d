/* clones: at -O2 GCC makes .isra, .constprop, .part and .cold clones of these. */
#include <stdio.h>
#include <stdlib.h>

struct big { int a, b, c, d; double pad[8]; };
static volatile unsigned long sink;

/* Only one field used: IPA-SRA passes it alone (work_isra.isra.0). */
static __attribute__((noinline)) unsigned long
work_isra(struct big *p, int unused)
{
	unsigned long s = 0;
	for (int i = 0; i < p->a * 1000; i++)
		s += (unsigned long)i * 7u;
	return s;
}

/* Always called with the same constant: constant propagation (.constprop.0). */
static __attribute__((noinline)) unsigned long
work_const(int n, int k)
{
	unsigned long s = 0;
	for (int i = 0; i < n * k * 100; i++)
		s += (unsigned long)i ^ s;
	return s;
}

/* An unlikely error branch (C++ throws make .cold clones: see cxx.cpp). */
static __attribute__((noinline)) unsigned long
work_cold(int n)
{
	unsigned long s = 0;
	if (__builtin_expect(n < 0, 0)) {
		fprintf(stderr, "negative %d\n", n);
		abort();
	}
	for (int i = 0; i < n * 1500; i++)
		s += (unsigned long)i * 3u;
	return s;
}

/* A likely quick exit in front of a big body: partial inlining (.part.0). */
static unsigned long
work_part(int n)
{
	if (__builtin_expect(n < 3, 1))
		return 1;
	unsigned long s = 0;
	for (int i = 0; i < n * 1200; i++) {
		s += (unsigned long)i * (unsigned long)n;
		if (s == 1000000000007ULL)
			fprintf(stderr, "x%d", i);
		if (s == 1000000000033ULL)
			fprintf(stderr, "y%d", i);
		if (s == 1000000000037ULL)
			fprintf(stderr, "z%d", i);
	}
	return s;
}

unsigned long
part_user(int r)
{
	return work_part(r % 30) + work_part(r % 7);
}

unsigned long
driver(int rounds)
{
	struct big b = { 5, 2, 3, 4, { 0 } };
	unsigned long s = 0;

	for (int r = 0; r < rounds; r++) {
		s += work_isra(&b, r);
		s += work_const(r % 50, 9);
		s += work_cold(r % 40);
		s += part_user(r);
		s += work_part(1);
	}
	return s;
}

int
main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 6000;

	sink = driver(rounds);
	printf("%lu\n", sink);
	return 0;
}
