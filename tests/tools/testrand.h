/* testrand: the test tools' small seeded generator (a 64-bit LCG), the same numbers on every host. */
#ifndef TGPROF_TESTRAND_H
#define TGPROF_TESTRAND_H

/* The generator's state: set it to the seed before the first test_rnd(). */
static unsigned long test_seed;

/* A number below N (N > 0). */
static inline unsigned
test_rnd(unsigned n)
{
	test_seed = test_seed * 6364136223846793005ul + 1442695040888963407ul;
	return (unsigned)(test_seed >> 33) % n;
}

#endif
