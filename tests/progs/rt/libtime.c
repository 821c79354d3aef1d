/* libtime: time in the C library under known callers (memcpy, snprintf, none); prints each one's CPU time. */
/*
 * Usage: libtime [SECONDS]   (1 by default)
 *
 * main runs three phases, each until the process has used its share of
 * SECONDS of CPU time: copy_heavy() (40%, nearly all of it in memcpy on
 * 4 MiB buffers), report() calling format_heavy() (40%, nearly all of it
 * in snprintf formatting doubles: deep frames of the C library, built
 * without frame pointers), and own_work() (20%, in its own code).  Prints
 * "copy C format F own O" (each phase's CPU time, s) and a checksum.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BUF (4 << 20)

char src[BUF], dst[BUF];	/* not static: the copies are kept */

static double
cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Eight copies of 4 MiB (half a millisecond or so): memcpy's time. */
__attribute__((noinline)) long
copy_heavy(int round)
{
	long sum = 0;

	for (int k = 0; k < 8; k++) {
		src[k] = (char)(round + k);
		memcpy(dst, src, BUF);
		sum += dst[k];
	}
	return sum;
}

/* A thousand doubles formatted: snprintf's time. */
__attribute__((noinline)) long
format_heavy(int round)
{
	char buf[64];
	long sum = 0;

	for (int k = 0; k < 1000; k++)
		sum += snprintf(buf, sizeof buf, "%.17g %d", (round * 1000 + k) / 7.0, k);
	return sum;
}

/* An intermediate frame between main and format_heavy. */
__attribute__((noinline)) long
report(int round)
{
	long sum = format_heavy(round);

	__asm__ volatile ("" : "+r" (sum));	/* no tail call */
	return sum;
}

/* Arithmetic in its own code, no call. */
__attribute__((noinline)) long
own_work(int round)
{
	unsigned long x = (unsigned long)round * 2654435761u + 1;

	for (int k = 0; k < 200000; k++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
	}
	return (long)(x & 0xffff);
}

/*
 * Rounds of phase K until the process has used SECS more of CPU time:
 * rounds are made in batches, each sized from the time the last took,
 * so that the clock is read a dozen times, not per round (it is a system
 * call, on whose return a CPU-time timer's signals tend to arrive).
 */
static long
phase(int k, double secs, int *round)
{
	double t0 = cpu_now(), used = 0;
	long sum = 0, done = 0, n = 1;

	while (used < secs) {
		for (long i = 0; i < n; i++, done++)
			sum += k == 0 ? copy_heavy(*round) : k == 1 ? report(*round) : own_work(*round);
		++*round;
		used = cpu_now() - t0;
		n = used > 0 ? (long)((secs - used) / (used / done)) + 1 : 2 * n;
		n = n > 2 * done ? 2 * done : n;
	}
	return sum;
}

int
main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 1.0, t[4];
	long sum = 0;
	int round = 0;

	for (int k = 0; k < 3; k++) {
		t[k] = cpu_now();
		sum += phase(k, (k < 2 ? 0.4 : 0.2) * secs, &round);
	}
	t[3] = cpu_now();
	printf("copy %.3f format %.3f own %.3f sum %ld\n", t[1] - t[0], t[2] - t[1], t[3] - t[2], sum);
	return 0;
}
