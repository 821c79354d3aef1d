/* prefault: memory about to be written, faulted in ahead of the writer by a second thread. */
#ifndef TGPROF_PREFAULT_H
#define TGPROF_PREFAULT_H

#include <pthread.h>
#include <stddef.h>

#define PREFAULT_RANGES 4

/*
 * Blocks a thread will fill from their starts at about the same pace
 * (the arcs, their keys and the call sites as records are read): a
 * second thread faults them in a slice of each in turn, so the writer
 * finds pages ready instead of having the kernel clear each one (on a
 * virtual machine, fresh memory can cost a millisecond a megabyte).
 */
struct prefault {
	void *start[PREFAULT_RANGES];
	size_t len[PREFAULT_RANGES];
	int n;
	int stop;		/* set by prefault_stop(), read by the thread */
	int running;
	pthread_t tid;
};

/* PF empty. */
void prefault_init(struct prefault *pf);

/* Adds [P, P + BYTES) to PF (ignored when PF is full, or BYTES small). */
void prefault_add(struct prefault *pf, void *p, size_t bytes);

/* Starts PF's thread; without one nothing happens (the writer faults its own pages). */
void prefault_start(struct prefault *pf);

/*
 * Stops PF's thread (within a slice) and waits for it.  Call before any
 * of the blocks is freed.  Safe if it never started.
 */
void prefault_stop(struct prefault *pf);

#endif
