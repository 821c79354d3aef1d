/* waits: where each thread waits off its CPU, and for how long, from the kernel's records of its switches. */
#ifndef TGMON_WAITS_H
#define TGMON_WAITS_H

#include <stdint.h>

#include "tgmon.h"

/*
 * A thread's waits come from a perf_event_open(2) event of its own that
 * counts its switches of context (PERF_COUNT_SW_CONTEXT_SWITCHES): at
 * each switch out, the kernel writes the time, the thread's user call
 * chain (by frame pointers) and the top of its stack into the event's
 * ring; at each switch back in, the time.  Nothing is signalled, so no
 * system call of the program's is interrupted; the event's descriptor is
 * closed as soon as its ring is mapped (the mapping keeps the event), so
 * the program's descriptors are untouched.  The ring is read (drained)
 * by the thread's sample handler, at its end, and by the writer; each
 * wait counts its nanoseconds for its stack in a trie of the thread's.
 * x86-64 only: elsewhere these do nothing.
 */

/* The calling thread's event, in normal context (tgmon_kernel_enter); nothing if it cannot be had. */
TGMON_HIDDEN void tgmon_waits_begin(void);
/* In the calling thread's sample handler: its ring drained. */
TGMON_HIDDEN void tgmon_waits_drain(void);
/* Its waits cost too much (it switches often): its event given up, in its handler too. */
TGMON_HIDDEN void tgmon_waits_give_up(void);
/* The calling thread ends: its ring drained, its event closed. */
TGMON_HIDDEN void tgmon_waits_end(void);
/* In a forked child: the parent's waits and events are not the child's. */
TGMON_HIDDEN void tgmon_waits_reset(void);
/* The header's: TGSTACKS_FLAG_WAITS_* bits. */
TGMON_HIDDEN uint32_t tgmon_waits_state(void);
/*
 * Calls F for each wait stack recorded (flags with TGSTACKS_WAIT, count
 * in nanoseconds), every thread's ring drained first where no one else
 * is draining it; *WAITS gets the waits counted.
 */
TGMON_HIDDEN void tgmon_waits_each(tgmon_stack_fn *f, void *ctx, uint64_t *waits);

#endif
