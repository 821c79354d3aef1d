/* walk: the state of a sample's walk, and the reads it allows, for its unwinder (cfi.c) and its stack search (scan.c). */
#ifndef TGMON_WALK_H
#define TGMON_WALK_H

#include <stdint.h>

#include "../src/input/gmon_out.h"
#include "tgmon.h"
#include "trie.h"

#define WALK_MAX_STEP (64ull << 20)	/* a frame bigger than this is not believed */

/* A thread's table: its samples' stacks, and what the walk knows of its stack. */
struct tgmon_stk {
	struct tgmon_trie t;
	/* The thread using it (set when it registers). */
	uint64_t hi;		/* a frame F has F + 16 <= HI */
	uint64_t top;		/* a walk whose last frame is at or above it reached the root; 0: unknown */
	uint64_t ok_lo;		/* [ok_lo, hi) is known to be readable */
	int main_thread;
	struct tgmon_stk *next;		/* every table made */
	struct tgmon_stk *spare_next;	/* while it waits for a new thread */
	uint64_t frame[TGSTACKS_MAX_DEPTH];	/* the walk's */
};

/* A walk in progress. */
struct tgmon_walk {
	struct tgmon_stk *s;
	int n;			/* frames in s->frame */
	int full;		/* a frame did not fit: truncated */
	int self;		/* libtgmon's module (tgmon_stacks_sample) */
	int nest;		/* signal frames crossed by the CFI (walk.c: tgmon_stk_cfi) */
	uint64_t lo;		/* the next frame is at or above */
	uint64_t plo, phi;	/* pages [plo, phi) proven readable in this walk */
};

/*
 * Whether the 16 bytes at A are a frame's place on W's stack: 8-aligned,
 * at or above the walk's lo, inside the thread's bounds, and readable
 * (a page not known to be mapped is asked of the kernel, so a bad chain
 * never faults).
 */
TGMON_HIDDEN int tgmon_walk_readable(struct tgmon_walk *w, uint64_t a);

/*
 * Whether the N bytes at A (N at most a page) can be read.  Inside a
 * readable segment of an object loaded at start (tgmon_hist.fixed, M's
 * or, when M is -1, the one whose code holds A), which stays mapped
 * until the process ends, they can, without a system call; elsewhere
 * the kernel is asked, page by page.
 */
TGMON_HIDDEN int tgmon_walk_mapped(int m, uint64_t a, uint64_t n);

/* The signal trampoline that handlers return to (tgmon_stacks_restorer); 0 while unknown. */
TGMON_HIDDEN extern uint64_t tgmon_walk_restorer;

/* Whether module M is the program's profiled code, not libtgmon's own (SELF). */
static inline int
tgmon_walk_program(int m, int self)
{
	return m != self && tgmon_is_profiled(m);
}

#endif
