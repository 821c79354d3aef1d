/* throwtime: C++ exceptions thrown and caught in a loop (the unwinder's time under the thrower) and own work; prints each phase's CPU time. */
/*
 * Usage: throwtime [SECONDS]   (1 by default)
 *
 * main runs two phases, each until the process has used its share of
 * SECONDS of CPU time: catcher() calling thrower(), which throws an
 * exception that catcher catches, a thousand times a round (80%, nearly
 * all of it in the C++ runtime and the unwinder, libstdc++ and libgcc_s:
 * __cxa_throw, _Unwind_RaiseException, _Unwind_Find_FDE, the personality
 * routine, all called from thrower), and own_work() (20%, in its own
 * code).  Prints "throw T own O" (each phase's CPU time, s) and a
 * checksum.  Built with -DTHROW_PTR, catcher calls thrower through a
 * pointer (as a virtual function is called).
 */
#include <cstdio>
#include <cstdlib>
#include <ctime>

static double
cpu_now()
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

struct oops {
	long v;
};

/* Throws: the unwinder runs below this frame (__cxa_throw is called from here). */
__attribute__((noinline)) void
thrower(long k)
{
	if (k >= 0)
		throw oops{ k };
}

#ifdef THROW_PTR
void (*volatile throw_ptr)(long) = thrower;	/* not static: always called through */
#define THROW(k) throw_ptr(k)
#else
#define THROW(k) thrower(k)
#endif

/* A thousand exceptions thrown by thrower(), caught here. */
__attribute__((noinline)) long
catcher(int round)
{
	long sum = 0;

	for (int k = 0; k < 1000; k++) {
		try {
			THROW(round + k);
		} catch (const oops &e) {
			sum += e.v & 7;
		}
	}
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
 * Rounds of phase K until the process has used SECS more of CPU time,
 * in batches sized from the time the last took (the clock read a dozen
 * times, not per round), as libtime.c's.
 */
static long
phase(int k, double secs, int *round)
{
	double t0 = cpu_now(), used = 0;
	long sum = 0, done = 0, n = 1;

	while (used < secs) {
		for (long i = 0; i < n; i++, done++)
			sum += k == 0 ? catcher(*round) : own_work(*round);
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
	double secs = argc > 1 ? atof(argv[1]) : 1.0, t[3];
	long sum = 0;
	int round = 0;

	for (int k = 0; k < 2; k++) {
		t[k] = cpu_now();
		sum += phase(k, (k == 0 ? 0.8 : 0.2) * secs, &round);
	}
	t[2] = cpu_now();
	printf("throw %.3f own %.3f sum %ld\n", t[1] - t[0], t[2] - t[1], sum);
	return 0;
}
