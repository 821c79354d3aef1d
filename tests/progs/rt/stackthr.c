/* stackthr: four threads, each burning CPU along a call path of its own: thrK calls pK calls spin. */
#include <pthread.h>
#include <stdio.h>

static volatile unsigned long sink;

__attribute__((noinline)) void
spin(long n)
{
	for (long i = 0; i < n; i++)
		sink += (unsigned long)i ^ (sink >> 5);
}

#define PATH(k) \
	__attribute__((noinline)) void p##k(void) { for (int r = 0; r < 10; r++) spin(3000000); sink++; } \
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
