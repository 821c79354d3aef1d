/* measure: measured inclusive times from libtgmon's call stacks, beside the call graph's estimates. */
#ifndef TGPROF_MEASURE_H
#define TGPROF_MEASURE_H

/*
 * gprof estimates a function's inherited time by splitting each callee's
 * time among its callers in proportion to their calls.  libtgmon records
 * the call stack of every sample (the stacks file, input/gmon_out.h);
 * from them this module counts, for every function, the samples in which
 * it was on the stack (its inclusive time, once a sample however deep
 * the recursion), and for every arc the samples in which that caller
 * called that callee.  A measure reads a profile and is immutable once
 * made; the profile must outlive it.
 */

#include <stddef.h>
#include <stdint.h>

#include "profile.h"
#include "truth.h"
#include "util/diag.h"

/*
 * A frame that is no function of the executable: PF_FRAME_OTHER + K names
 * it other[K] (a library's function, or "[libname.so]" where the library
 * cannot be read), or it is unknown.
 */
#define PF_FRAME_OTHER 0xf0000000u
#define PF_FRAME_UNKNOWN PF_NONE
/* Frames outside the program at most: ids above are pseudo-frames (flame.h, calltree.h). */
#define PF_FRAME_OTHER_MAX 0x0fffff00u

/*
 * A stack: COUNT samples, its frames frame[first .. first + depth),
 * outermost first.  WEIGHT: what they count for in the measure's times
 * (tally.h): COUNT, less the profiler's and -pg's calls' time.
 */
struct pf_mstack {
	uint64_t count;
	double weight;
	uint32_t first, depth;
	uint32_t flags;		/* TGSTACKS_ROOT (it reached the thread's root), TGSTACKS_TRUNCATED */
};

struct pf_measure {
	long hz;			/* samples a second of each thread's CPU time */
	uint64_t samples;		/* samples with a stack, all files */
	uint64_t root;			/* of them, whose stack reached the thread's root */
	uint64_t truncated;		/* cut at the depth limit (the innermost frames kept) */
	uint64_t lost;			/* samples libtgmon could not record */
	uint64_t signals;		/* the signals that brought them: the independent observations */
	uint64_t in_program;		/* samples whose innermost frame is a function of the program */
	/*
	 * The program's own time (truth.h): the stacks' weights summed, the
	 * base of every share of the measure's times; what was taken out of
	 * the samples to make it (the profiler's functions' samples, out of
	 * it unless TRUTH counts them; -pg's calls' cost, CALL_PS picoseconds
	 * a call, 0 unless asked); and what TRUTH says to take out.
	 * CALL_PS_MEASURED: what libtgmon measured a call to cost where the
	 * program ran (its stacks files' claim; 0: none).
	 */
	double total;
	double profiler, calls;
	double call_ps, call_ps_measured;
	struct truth_opts truth;
	/*
	 * Per symbol and cycle (nsyms + ncycles): samples with it on the
	 * stack, once a sample; of them, samples with it innermost (a cycle:
	 * one of its members).  These and every other time below are sums
	 * of the stacks' weights.
	 */
	double *incl, *self;
	/* Per arc (profile ids): samples in which its parent called its child; of them, child innermost. */
	double *arc_incl, *arc_self;
	struct pf_mstack *stack;	/* in the files' order */
	size_t nstack;
	uint32_t *frame;		/* symbol ids, PF_FRAME_OTHER + k or PF_FRAME_UNKNOWN */
	char **other;			/* names of frames outside the program */
	char **other_lib;		/* the file name of each one's library */
	uint32_t nother;
	/*
	 * The library time: per frame outside the program, the samples with
	 * it innermost; per symbol, the samples innermost in a library whose
	 * innermost frame in the program is it (the histogram charges them
	 * to it).
	 */
	double *other_self;
	double *lib_charged;
};

/* How to measure. */
struct measure_opts {
	const char *debug_dir;		/* libraries' detached debugging files, by build ID; NULL: none */
	const char *image;		/* the profile's executable, or the -pg library it is of; NULL: the program */
	struct truth_opts truth;	/* what to take out of the times */
	double call_ps;			/* -pg's cost a call to take out, picoseconds (<= 0: none) */
};

/*
 * Reads the stacks files PATHS (N of them; stacks file k belongs to the
 * profile's gmon file k and must carry its run identifier) and measures
 * P's functions and arcs, as O says.  Libraries' frames are named from
 * their detached debugging files under O->debug_dir (by build ID), else
 * their own symbols.  0 with *OUT set, or -1 with the reason in D.  The
 * caller frees *OUT with measure_free().
 */
int measure_load(const struct profile *p, const char *const *paths, size_t n,
    const struct measure_opts *o, struct pf_measure **out, struct diag *d);

/* M measured again with other things taken out (O), for profile P; 0, or -1 (out of memory). */
int measure_reweigh(const struct pf_measure *m, const struct profile *p, const struct truth_opts *o,
    struct pf_measure **out);
void measure_free(struct pf_measure *m);

#endif
