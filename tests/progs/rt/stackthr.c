/* stackthr: four threads, each burning CPU along a call path of its own: thrK calls pK calls spin. */
#include <pthread.h>
#include <stdio.h>

static volatile unsigned long sink;

/*
 * The same work in each thread, on a variable of its own: one all the
 * threads wrote bounced between the CPUs, and the threads that ran alone
 * took less CPU time for it (one had 11% of the samples, not 25%).
 */
__attribute__((noinline)) void
spin(long n)
{
	volatile unsigned long own = 0;

	for (long i = 0; i < n; i++)
		own += (unsigned long)i ^ (own >> 5);
	sink += own;
}

#define PATH(k) \
	__attribute__((noinline)) void p##k(void) { for (int r = 0; r < 10; r++) spin(30000000); sink++; } \
	__attribute__((noinline)) void *thr##k(void *arg) { p##k(); sink++; return arg; }
PATH(0)
PATH(1)
PATH(2)
PATH(3)

int
main(void)
{
	void *(*f[4])(void *) = { thr0, thr1, thr2, thr3 };
	pthread_t t[4];

	for (int k = 0; k < 4; k++)
		pthread_create(&t[k], NULL, f[k], NULL);
	for (int k = 0; k < 4; k++)
		pthread_join(t[k], NULL);
	printf("%lu\n", sink);
	return 0;
}
