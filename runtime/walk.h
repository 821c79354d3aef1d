/* walk: the state of a sample's walk, the reads it allows and its frames, between walk.c and the architecture's walker (walk-ARCH.c, cfi.c, scan.c). */
#ifndef TGMON_WALK_H
#define TGMON_WALK_H

#include <stdint.h>
#include <ucontext.h>

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
	int nest;		/* signal frames crossed by the CFI (walk-x86_64.c: tgmon_stk_cfi) */
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

/* Whether the 8 bytes at A can be read (a system call: the kernel tells). */
TGMON_HIDDEN int tgmon_stk_probe(uint64_t a);

/* Adds a return address to W's stack; 0 if it is not in loaded code, or there is no room (w->full). */
TGMON_HIDDEN int tgmon_stk_push(struct tgmon_walk *w, uint64_t ra);

/*
 * The flags of the walk W, whose chain ended at the frame LAST (0: none
 * reached) with LINK the frame pointer saved there (1: not known): the
 * root is reached at the thread's root frame (top) once it is known,
 * else where the chain ends at a saved frame pointer of 0 or (main
 * thread) above the stack.  A chain that went astray (through a
 * library's frame, whose frame pointer or saved words may hold 0 or
 * anything) and stopped there is not complete.
 */
TGMON_HIDDEN uint32_t tgmon_stk_flags(const struct tgmon_walk *w, uint64_t last, uint64_t link);

/* The index in s->frame[1..N) of the innermost return address into the program (tgmon_walk_program), or 0. */
TGMON_HIDDEN int tgmon_stk_inner(const struct tgmon_stk *s, int n, int self);

/*
 * walk-ARCH.c: the architecture's walk.  tgmon_stk_walk walks the
 * stack of the thread UC interrupted into s->frame (its program counter,
 * then the return addresses): the count, and *FLAGS (tgmon_stk_flags, or
 * TGSTACKS_TRUNCATED).  SELF is libtgmon's module (tgmon_stacks_sample).
 */
TGMON_HIDDEN int tgmon_stk_walk(struct tgmon_stk *s, const ucontext_t *uc, int self, uint32_t *flags);
/*
 * Where the histogram charges a sample outside the program whose
 * innermost return address into it is s->frame[K] (of N): at the call
 * that returns there (or, on x86-64, a function's start).
 */
TGMON_HIDDEN uint64_t tgmon_stk_charge(const struct tgmon_stk *s, int n, int k);
/* main()'s address, from the program's entry code; 0 if not found there.  Normal context. */
TGMON_HIDDEN uint64_t tgmon_stk_find_main(void);
/* The walk's settings from the environment (x86-64: TGMON_UNWIND), at start. */
TGMON_HIDDEN void tgmon_stk_settings(void);

/* The signal trampoline that handlers return to (x86-64: tgmon_stacks_restorer); 0 while unknown. */
TGMON_HIDDEN extern uint64_t tgmon_walk_restorer;

/* Whether module M is the program's profiled code, not libtgmon's own (SELF). */
static inline int
tgmon_walk_program(int m, int self)
{
	return m != self && tgmon_is_profiled(m);
}

#endif
