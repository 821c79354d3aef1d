/* calltruth: known shares of CPU time, one of them in ten million tiny calls, one in memcpy; prints each phase's time. */
/*
 * Usage: calltruth [SCALE]   (1 by default: about 0.2 s without -pg here)
 *
 * Three phases, run in turn, each timed with the thread's CPU clock:
 * leafy() calls leaf() ten million times (SCALE times that), each call a
 * few nanoseconds of arithmetic, so that -pg's cost of a call (the call
 * to mcount in leaf's prologue, and the profiler's counting) is as large
 * as the work; bulk() does arithmetic in one long loop, no calls; copy()
 * copies 64 KiB buffers with memcpy (the C library, without -pg).  Prints
 * "leafy L bulk B copy C" (CPU seconds).  Built without -pg, these are the
 * truth tgprof's times of a -pg build must find: leafy's phase is leafy()
 * and leaf() together.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CALLS 10000000L
#define BUF (64 << 10)	/* in the caches: memcpy's time is the CPU's, not the shared memory bus's */

static volatile unsigned long sink;
char src[BUF], dst[BUF];	/* not static: the copies are kept */

static double
cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A few nanoseconds of work the compiler keeps. */
__attribute__((noinline)) unsigned long
leaf(unsigned long x)
{
	for (int k = 0; k < 4; k++)
		x = x * 6364136223846793005ul + 1442695040888963407ul;
	return x;
}

__attribute__((noinline)) void
leafy(long n)
{
	unsigned long x = sink;

	for (long i = 0; i < n; i++)
		x = leaf(x);
	sink = x;
}

__attribute__((noinline)) void
bulk(long n)
{
	unsigned long x = sink;

	for (long i = 0; i < n; i++)
		x = x * 6364136223846793005ul + 1442695040888963407ul;
	sink = x;
}

__attribute__((noinline)) void
copy(long n)
{
	for (long i = 0; i < n; i++) {
		src[i & 4095] = (char)i;
		memcpy(dst, src, BUF);
		sink += (unsigned char)dst[i & 4095];
	}
}

int
main(int argc, char **argv)
{
	double scale = argc > 1 ? atof(argv[1]) : 1, t0, t1, t2, t3;

	t0 = cpu_now();
	leafy((long)(CALLS * scale));
	t1 = cpu_now();
	bulk((long)(120000000L * scale));
	t2 = cpu_now();
	copy((long)(95000 * scale));
	t3 = cpu_now();
	printf("leafy %.4f bulk %.4f copy %.4f\n", t1 - t0, t2 - t1, t3 - t2);
	return 0;
}
