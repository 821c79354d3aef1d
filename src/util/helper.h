/* helper: what a helper thread (work beside the one the user waits on) does first. */
#ifndef TGPROF_HELPER_H
#define TGPROF_HELPER_H

/*
 * The calling thread's priority below its process's other threads (Linux
 * nice 10 for this thread alone): where helpers outnumber the processors,
 * the thread whose work is waited on (the load's own) gets one first, and
 * the helpers share what is left.  Harmless where it cannot be done.
 */
void helper_lower_priority(void);

#endif
