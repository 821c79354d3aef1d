/* follow: a running program's snapshots (libtgmon's gmon.out.live) followed, each new one loaded as the whole run's profile or its last interval's. */
#ifndef TGPROF_FOLLOW_H
#define TGPROF_FOLLOW_H

#include <stdint.h>

#include "core/measure.h"
#include "core/profile.h"
#include "util/diag.h"

/*
 * libtgmon writes BASE (gmon.out.live), BASE.stacks, then BASE.info
 * (runtime/live.h), each replaced whole by a rename.  A follow object
 * keeps private copies of the last two snapshots (a directory of its
 * own, removed by follow_free()), so that a snapshot replaced meanwhile
 * is still there to take out of the next: the interval's profile is the
 * newer less the older (pf_opts.since, measure_opts.since).  Nothing
 * here runs the program or asks it for snapshots: the caller does, and
 * says through MORE whether another may come.
 */

struct follow;

/* What one snapshot was (its info file). */
struct follow_snap {
	uint32_t seq;		/* 0: none yet */
	uint64_t mono_ns;	/* when it was taken, CLOCK_MONOTONIC */
	uint64_t cpu_ns;	/* the process's CPU time then */
	int final;		/* the last, written at the program's exit */
	uint64_t start_ns;	/* when the program started, CLOCK_MONOTONIC (0: not said) */
};

/* What is shown (follow_status()). */
struct follow_status {
	struct follow_snap now;	/* the snapshot loaded last */
	struct follow_snap before;	/* the one before it (seq 0: none: the interval is the run so far) */
	int interval;		/* the profile is of the last interval (else of the whole run) */
	int ended;		/* the program has ended: no snapshot will come */
};

/* The info file PATH (BASE.info) into S: 0, or -1 if it is not there or not whole. */
int follow_read_info(const char *path, struct follow_snap *s);

/*
 * A follow object following the snapshots BASE of the program LOAD->image
 * (LOAD is copied, but for its files; its pointers must outlive the
 * object), their stacks measured as MO says (copied, its since set
 * here).  MORE(CTX): 1 while the program may write another snapshot, 0
 * once it has ended.  0 with *OUT set, or -1 with the reason in D.
 */
int follow_new(const char *base, const struct pf_opts *load, const struct measure_opts *mo,
    int (*more)(void *ctx), void *ctx, struct follow **out, struct diag *d);
/* Frees LV: every profile it gave out must be freed before (they borrow its executable's symbols). */
void follow_free(struct follow *lv);

/*
 * A snapshot newer than the last one loaded, if there is one, copied and
 * loaded into *P and *M (M NULL where it has no stacks), as the whole run
 * or as its last interval (follow_interval()): 1; 0 if there is none yet
 * (*P NULL); -1 with the reason in D.  WAIT_MS: how long to wait for one
 * (0: only look).  The caller owns what it gets.
 */
int follow_poll(struct follow *lv, int wait_ms, struct profile **p, struct pf_measure **m, struct diag *d);

/*
 * Up to MS milliseconds until a snapshot newer than the last loaded is
 * there (not loaded: follow_poll() does): 1; 0 if none came (the time
 * passed, or the program ended).
 */
int follow_wait(struct follow *lv, int ms);

/*
 * The last snapshot loaded again, as its interval (ON 1) or the whole run
 * (ON 0), into *P and *M: 1; 0 if none was loaded yet; -1 with the
 * reason in D.
 */
int follow_interval(struct follow *lv, int on, struct profile **p, struct pf_measure **m, struct diag *d);

void follow_status(const struct follow *lv, struct follow_status *st);

#endif
