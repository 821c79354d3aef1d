/* rate: a server's loop at a known call rate: tick() 2000 times a second, burn() 1000 times (for libtgmon's snapshots). */
#include <stdlib.h>
#include <time.h>

static volatile unsigned long sink;

/* A call of known rate; does next to nothing. */
__attribute__((noinline)) void
tick(void)
{
	sink++;
}

/* About 300 microseconds (at 1.3 ns a step) of work, the program's CPU time. */
__attribute__((noinline)) void
burn(void)
{
	unsigned long i;

	for (i = 0; i < 400000; i++)
		sink += i ^ (sink >> 3);
}

/*
 * Slot k of each millisecond from the start: two tick()s and one
 * burn(), at its time; slots missed (a busy machine) are made up at
 * once, so that after t seconds the counts are 2000 t and 1000 t, to a
 * slot.  ARGV[1] seconds (0, or none: until a signal ends it).
 */
int
main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 0;
	struct timespec start, at;
	unsigned long k, slots = (unsigned long)(secs * 1000);

	clock_gettime(CLOCK_MONOTONIC, &start);
	for (k = 0; slots == 0 || k < slots; k++) {
		at.tv_sec = start.tv_sec + (time_t)(k / 1000);
		at.tv_nsec = start.tv_nsec + (long)(k % 1000) * 1000000;
		if (at.tv_nsec >= 1000000000) {
			at.tv_sec++;
			at.tv_nsec -= 1000000000;
		}
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &at, NULL);
		tick();
		tick();
		burn();
	}
	return 0;
}
