/* switch: two threads pass a byte back and forth through pipes, WORK rounds of computing at each end, for libtgmon's cost at switches of context. */
/*
 * Usage: switch [WORK [TRIPS]]: TRIPS round trips (default 100000), two
 * switches each; WORK spin rounds (default 1500, about 3 us here: some
 * 2.5 x 10^5 switches a second) by each thread at each trip.
 */
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

static int there[2], back[2];
static long trips = 100000, work = 1500;
static volatile unsigned long sink;

__attribute__((noinline)) void
spin(long n)
{
	volatile unsigned long own = 0;

	for (long i = 0; i < n; i++)
		own += (unsigned long)i ^ (own >> 3);
	sink += own;
}

__attribute__((noinline)) void *
ponger(void *arg)
{
	char c;

	for (long i = 0; i < trips; i++) {
		if (read(there[0], &c, 1) != 1)
			exit(2);
		spin(work);
		if (write(back[1], &c, 1) != 1)
			exit(2);
	}
	return arg;
}

int
main(int argc, char **argv)
{
	pthread_t t;
	char c = 0;

	if (argc > 1)
		work = atol(argv[1]);
	if (argc > 2)
		trips = atol(argv[2]);
	if (pipe(there) != 0 || pipe(back) != 0 || pthread_create(&t, NULL, ponger, NULL) != 0)
		return 2;
	for (long i = 0; i < trips; i++) {
		if (write(there[1], &c, 1) != 1 || read(back[0], &c, 1) != 1)
			return 2;
		spin(work);
	}
	pthread_join(t, NULL);
	return 0;
}
