/* calib: what -pg adds to a call, measured once on this machine (tgmon_call_ps), for tgprof's --call-cost. */
#include <errno.h>
#include <stdint.h>
#include <time.h>

#include "tgmon.h"

/*
 * The monotonic clock in nanoseconds (0: none), read in user space (the
 * vDSO) where the kernel allows: a thread CPU-time clock is a system
 * call, whose way in and out of the kernel (its mitigations flush the
 * return predictions) slows the calls timed after it by a third.
 */
static uint64_t
tgmon_now_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
 * Calibration: CALIB_TRIALS trials, each of CALIB_ROUNDS rounds of one
 * batch of CALIB_CALLS calls of each kind, after one round that warms up
 * and is not counted: about 1 ms in all on x86-64.
 */
#define CALIB_CALLS 20000
#define CALIB_ROUNDS 8
#define CALIB_TRIALS 3

/*
 * One trial: the least time of a batch of tgmon_calib_pg over the rounds
 * (those a preemption or an interrupt did not lengthen) less the least
 * of tgmon_calib_plain, in picoseconds a call; 0 if there is no clock.
 */
static uint64_t
tgmon_calib_trial(void)
{
	uint64_t best[2] = { UINT64_MAX, UINT64_MAX }, t0, t1, t2;
	int r;

	for (r = 0; r <= CALIB_ROUNDS; r++) {
		t0 = tgmon_now_ns();
		tgmon_calib_pg(CALIB_CALLS);
		t1 = tgmon_now_ns();
		tgmon_calib_plain(CALIB_CALLS);
		t2 = tgmon_now_ns();
		if (t0 == 0)
			return 0;
		if (r == 0)
			continue;
		best[0] = t1 - t0 < best[0] ? t1 - t0 : best[0];
		best[1] = t2 - t1 < best[1] ? t2 - t1 : best[1];
	}
	return best[0] > best[1] ? (best[0] - best[1]) * 1000 / CALIB_CALLS : 0;
}

/*
 * What -pg adds to a call, in picoseconds, measured once on this
 * machine: a function shaped as -pg makes them (tgmon_calib_pg) against
 * one that only returns (tgmon_calib_plain), the median of
 * CALIB_TRIALS trials (a trial that met a slower spell of the machine
 * is left out); 0 if there is no clock.  It opens nothing, makes no
 * system call where clock_gettime() needs none, and keeps errno; its
 * functions are libtgmon's (tgmon_calib_*), and the writer runs it while
 * its thread takes no samples.
 */
uint32_t
tgmon_call_ps(void)
{
	static uint32_t ps;
	static int done;
	uint64_t v[CALIB_TRIALS], t;
	int saved = errno, i, j;

	if (done)
		return ps;
	for (i = 0; i < CALIB_TRIALS; i++) {	/* sorted as they come */
		t = tgmon_calib_trial();
		for (j = i; j > 0 && v[j - 1] > t; j--)
			v[j] = v[j - 1];
		v[j] = t;
	}
	t = v[CALIB_TRIALS / 2];
	ps = t < UINT32_MAX ? (uint32_t)t : UINT32_MAX;
	done = 1;
	errno = saved;
	return ps;
}
