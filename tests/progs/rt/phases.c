/* phases: early() runs for the first ARGV[1] seconds (0.4 by default), then only late(), until a signal ends it (for top's live view). */
#include <stdlib.h>
#include <time.h>

static volatile unsigned long sink;

__attribute__((noinline)) void
early(void)
{
	unsigned long i;

	for (i = 0; i < 20000; i++)
		sink += i ^ (sink >> 3);
}

__attribute__((noinline)) void
late(void)
{
	unsigned long i;

	for (i = 0; i < 20000; i++)
		sink += i ^ (sink >> 5);
}

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int
main(int argc, char **argv)
{
	double until = now() + (argc > 1 ? atof(argv[1]) : 0.4);
	struct timespec nap = { 0, 1000000 };

	while (now() < until)
		early();
	for (;;) {
		late();
		nanosleep(&nap, NULL);
	}
}
