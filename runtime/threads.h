/* threads: a record of each sampled thread (its id, name, CPU time and samples), for the stacks file. */
#ifndef TGMON_THREADS_H
#define TGMON_THREADS_H

#include <stdint.h>

#include "tgmon.h"

/* What the stacks file says of a thread (gmon_out.h's thread record). */
struct tgmon_thr {
	uint32_t tid, flags;	/* TGSTACKS_THREAD_* */
	uint64_t cpu_ns, samples, signals, start_ns, end_ns;
	char name[16];		/* its comm, NUL-terminated */
};

/*
 * The calling thread starts to be sampled: its record (its id, its name
 * and when), once a thread, kept if it starts again (a profiled call
 * after its end).  Only where the kernel may be asked (tgmon_kernel_enter).
 */
TGMON_HIDDEN void tgmon_threads_begin(void);
/* The calling thread ends: its CPU time and its name, as they are now.  Likewise. */
TGMON_HIDDEN void tgmon_threads_end(void);
/* FLAG (TGSTACKS_THREAD_*) on the calling thread's record; in its handler too. */
TGMON_HIDDEN void tgmon_threads_flag(uint32_t flag);
/* FLAG on record I's (TGSTACKS_NO_THREAD: none). */
TGMON_HIDDEN void tgmon_threads_flag_of(uint32_t i, uint32_t flag);
/* In the calling thread's sample handler: WEIGHT samples, one signal. */
TGMON_HIDDEN void tgmon_threads_sampled(uint32_t weight);
/* The calling thread's record's number, or TGSTACKS_NO_THREAD (none, or past the limit). */
TGMON_HIDDEN uint32_t tgmon_threads_self(void);
/* In a forked child: no record; the forking thread, the child's only one, gets the first again. */
TGMON_HIDDEN void tgmon_threads_reset(void);
/* The records written: those handed out, at most TGSTACKS_MAX_THREADS. */
TGMON_HIDDEN uint32_t tgmon_threads_count(void);
/*
 * Record I (< tgmon_threads_count()) into *R, finished for the file: a
 * thread still running has its CPU time and name read now (its clock,
 * /proc/self/task/TID/comm) and end_ns 0.
 */
TGMON_HIDDEN void tgmon_threads_get(uint32_t i, struct tgmon_thr *r);

#endif
