/* truth: the program's own time, as it runs without -pg: the profiler's functions and -pg's per-call cost out. */
#ifndef TGPROF_TRUTH_H
#define TGPROF_TRUTH_H

/*
 * A program built with -pg runs differently from the same program built
 * without: every function's prologue calls mcount (a call, and the frame
 * -pg forces), and the runtime's own functions (libtgmon's tgmon_*,
 * glibc's mcount) take samples of their own.  gprof shows that time as
 * the program's.  tgprof shows, by default, what the program without -pg
 * would spend: the profiler's functions keep their rows but count in no
 * total and in nobody's inclusive time, and each function's self time
 * loses its calls times the cost of one call, which libtgmon measures
 * where the program runs (the stacks file's call_ps).  Both can be put
 * back (struct truth_opts).  Batch output stays gprof's, untouched.
 */

#include <stdint.h>

#include "profile.h"

/*
 * Which time the measured times are (--clock): the threads' CPU time (the
 * samples; their waits out), their time off CPU alone (the waits libtgmon
 * recorded, gmon_out.h's TGSTACKS_WAIT), or both, the wall-clock time.
 */
enum truth_clock { TRUTH_CPU, TRUTH_WAIT, TRUTH_WALL };

/* What is taken out of the times. */
struct truth_opts {
	int with_profiler;	/* the profiler's functions count in totals and inclusive times */
	int raw;		/* nothing taken out: the times as sampled (implies with_profiler) */
	enum truth_clock clock;	/* the measure's (measure.h): which stacks weigh */
};

/*
 * Whether the function named NAME (raw) is one of an mcount runtime
 * (libtgmon's tgmon_*, glibc's mcount, __mcount_internal, ...): its time
 * is the cost of profiling, not the program's.  The profile keeps the
 * answer for each symbol (pf_sym.profiler); truth_is_profiler() reads it.
 */
int truth_profiler_name(const char *name);
int truth_is_profiler(const struct profile *p, uint32_t id);

/* The calls that ran symbol ID's prologue, and so its call to mcount: from others and itself. */
uint64_t truth_calls(const struct profile *p, uint32_t id);

/*
 * Symbol ID's self time in P's ticks as the program without -pg would
 * have it: its histogram time less its calls times CALL_PS picoseconds
 * (none with O->raw or CALL_PS 0; never below 0).  A profiler's
 * function keeps its own time (whether it counts is truth_counts()'s).
 */
double truth_self(const struct profile *p, uint32_t id, double call_ps, const struct truth_opts *o);

/* Whether symbol ID's time counts in totals and inclusive times under O. */
int truth_counts(const struct profile *p, uint32_t id, const struct truth_opts *o);

/* What was taken out of P's times, and what is left: ticks. */
struct truth_sums {
	double total;		/* the program's: the profile's total time less what is taken out */
	double profiler;	/* the profiler's functions' time (out of the total unless counted) */
	double calls;		/* taken out as the calls' cost */
};
struct truth_sums truth_sum(const struct profile *p, double call_ps, const struct truth_opts *o);

#endif
