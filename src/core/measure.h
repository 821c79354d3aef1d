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
 * outermost first; or, with TGSTACKS_WAIT, a wait: COUNT nanoseconds off
 * CPU.  WEIGHT: what it counts for in the measure's times (tally.h), in
 * samples of the measure's rate (a wait's nanoseconds times hz / 1e9):
 * COUNT, less the profiler's and -pg's calls' time, and 0 for the stacks
 * of the other clock (truth_opts.clock).
 */
struct pf_mstack {
	uint64_t count;
	double weight;
	uint32_t first, depth;
	uint32_t flags;		/* TGSTACKS_ROOT (it reached the thread's root), TGSTACKS_TRUNCATED, TGSTACKS_WAIT */
	uint32_t thread;	/* its thread (an index of the measure's thread[]), or PF_NO_THREAD */
};

#define PF_NO_THREAD 0xffffffffu	/* a stack of no thread record (version 1 and 2, or past the records) */
#define PF_THREAD_ENDED 0x1u		/* it had ended when the file was written */
#define PF_THREAD_MAIN 0x2u		/* the process's main thread */
#define PF_THREAD_CPU 0x4u		/* its CPU time was measured (else cpu_ns is 0: unknown) */
#define PF_THREAD_NAME 64		/* a thread's name's bytes at most */

/*
 * A thread of the profiled process, from the thread records of the
 * stacks files (version 3, input/gmon_out.h).  The same tid may appear in
 * several files (several processes).  Call counts (the gmon files' arcs)
 * are not recorded per thread: they are the whole process's.
 */
struct pf_thread {
	uint32_t tid;			/* the kernel's thread id */
	uint32_t flags;			/* PF_THREAD_* */
	uint32_t file;			/* the stacks file it is of (measure_load()'s PATHS) */
	uint64_t cpu_ns;		/* its CPU time, ns (PF_THREAD_CPU; else 0) */
	uint64_t samples;		/* taken in it: its stacks' counts and those lost */
	uint64_t signals;		/* the signals that brought them */
	uint64_t start_ns, end_ns;	/* its first profiled call, its end (0: running); CLOCK_MONOTONIC */
	uint64_t stacked;		/* of its samples, those in its stacks */
	/* Its name: untrusted bytes with NUL, control characters and DEL as '?'; "" if it had none. */
	char name[PF_THREAD_NAME + 1];
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
	 * Waits (stacks with TGSTACKS_WAIT, apart from the samples' sums
	 * above): their nanoseconds and how many; WAIT_FLAGS, the stacks
	 * files' TGSTACKS_FLAG_* ORed (whether they were recorded, or why not;
	 * 0: files of before version 3).  WAIT_TOTAL: the waits' weight in
	 * the times (0 under the CPU clock).
	 */
	uint64_t wait_ns, waits;
	uint32_t wait_flags;
	double wait_total;
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
	/*
	 * The threads, in the files' order (none where no file has thread
	 * records); CHOSEN: per thread, whether its stacks are in this
	 * measure (measure_threads()), or NULL: every stack is, the whole
	 * process.  The sums above (samples, root, ...) are those of the
	 * stacks in it; LOST and SIGNALS those of the chosen threads.
	 */
	struct pf_thread *thread;
	uint32_t nthread;
	unsigned char *chosen;
	uint32_t nchosen;		/* threads chosen (0 when CHOSEN is NULL) */
	uint64_t thread_samples;	/* the threads' samples and the stacks' of no thread: the whole process's */
};

/* How to measure. */
struct measure_opts {
	const char *debug_dir;		/* libraries' detached debugging files, by build ID; NULL: none */
	const char *image;		/* the profile's executable, or the -pg library it is of; NULL: the program */
	struct truth_opts truth;	/* what to take out of the times */
	double call_ps;			/* -pg's cost a call to take out, picoseconds (<= 0: none) */
	/*
	 * An earlier snapshot's stacks file of the same run, taken out of
	 * the one file read (since.h): the interval's stacks.  NULL: none.
	 */
	const char *since;
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

/*
 * M narrowed to the threads CHOSEN (per thread of M, nonzero: chosen; at
 * least one): a measure of their stacks only, counted again for P (as M
 * was made for), every time and sum of it theirs; the threads all kept,
 * with CHOSEN copied.  Stacks of no thread record are left out.  0 with
 * *OUT set, or -1 (out of memory, or no thread chosen).  Narrowing a
 * narrowed measure narrows M's own stacks, not the whole process's.
 */
int measure_threads(const struct pf_measure *m, const struct profile *p, const unsigned char *chosen,
    struct pf_measure **out);

/*
 * The threads of M that SPEC names into CHOSEN (M->nthread bytes, set to 1
 * for a thread named; others left as they are): SPEC is a comma-separated
 * list of thread ids (decimal) and names, a name being an fnmatch(3)
 * pattern (a glob: '*', '?', [...]) matched against the thread's name as
 * shown.  Returns the threads named, or -1 with the reason in D (M has no
 * thread records; an empty element; an element that names no thread).
 */
long measure_thread_match(const struct pf_measure *m, const char *spec, unsigned char *chosen,
    struct diag *d);

/*
 * Thread T's share of the samples: its samples over all the threads'
 * (those of no thread record included); 0 when there are none.
 */
double measure_thread_share(const struct pf_measure *m, uint32_t t);

/*
 * NULL if M's stacks files recorded waits (some thread's, if any waited);
 * else why not, a phrase ("the kernel refused ...") for a message.
 */
const char *measure_waits_why(const struct pf_measure *m);

#endif
