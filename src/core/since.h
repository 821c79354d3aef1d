/* since: an earlier snapshot of the same run, whose counts are taken out of a later one's as it is read (an interval's profile). */
#ifndef TGPROF_SINCE_H
#define TGPROF_SINCE_H

#include <stddef.h>
#include <stdint.h>

#include "input/gmon.h"
#include "input/stacks.h"
#include "util/diag.h"
#include "util/u64map.h"

struct profile;

/*
 * libtgmon's snapshots of one running program (TGMON_INTERVAL) only
 * grow: each arc's count, each histogram bin, each stack's samples.  The
 * profile of the interval between two is the later one less the earlier
 * one, record by record: an arc by its (call site, callee) addresses, a
 * histogram record by its range and bins, a stack by its thread (tid and
 * start), kind and addresses.  What the earlier one has more of (a file
 * that is not this run's earlier snapshot: refused by the run
 * identifier, or a wrapped 16-bit bin) leaves zero, never less.
 */

struct since_arc {
	uint64_t from, self;
	uint64_t left;		/* calls still to take out of the later file's records */
	uint32_t next;		/* the arc before it of the same hash, or U64MAP_NONE */
};

struct since_hist {
	uint64_t lowpc, highpc;
	uint32_t num_bins;
	const unsigned char *bins;	/* in FILE */
};

/* An earlier gmon file, read.  Owns everything it points to. */
struct since {
	struct gmon_file file;
	uint64_t runid;			/* libtgmon's run identifier (0: none; then refused) */
	struct since_arc *arc;
	size_t narc, arccap;
	size_t next;			/* the arc the later file's next record most likely is */
	struct u64map index;		/* (from, self) hashed -> its last arc, once INDEXED */
	int indexed;
	struct since_hist *hist;
	size_t nhist, histcap;
};

/* The gmon file PATH, as LAY says, into *S: 0, or -1 with the reason in D (*S then empty). */
int since_load(struct since *s, const char *path, enum gmon_format fmt, const struct gmon_layout *lay,
    struct diag *d);
void since_free(struct since *s);

/*
 * *COUNT calls of an arc record (FROM, SELF) of the later file, less what
 * S still has of it (*COUNT is what is left); 0, or -1 out of memory.
 */
int since_take(struct since *s, uint64_t from, uint64_t self, uint64_t *count);

/*
 * S's histogram records taken out of P's (read from the later file), each
 * from the record of its range; 0, or -1 with the reason in D (a record P
 * has no match for: not an earlier snapshot of the same program).
 */
int since_hist(const struct since *s, struct profile *p, const char *path, struct diag *d);

/*
 * The stacks file BEFORE (an earlier snapshot's, read) taken out of NOW:
 * its samples, signals, root, truncated and lost counts, its waits, each
 * stack's count and each thread's samples, signals and CPU time; stacks
 * left with none are dropped.  0, or -1 (out of memory: NOW as it was,
 * but for its counts).
 */
int since_stacks(struct stacks_file *now, const struct stacks_file *before);

#endif
