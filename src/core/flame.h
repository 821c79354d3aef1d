/* flame: the call stacks merged into one tree of frames, the flame graph's (icicle's) data. */
#ifndef TGPROF_FLAME_H
#define TGPROF_FLAME_H

#include <stddef.h>
#include <stdint.h>

#include "measure.h"
#include "util/diag.h"

/*
 * Node 0 is the root, all the samples; under a node, the frames called
 * from it along some stack, each once: a stack of frames f1 ... fn (f1
 * outermost) adds its samples to the root and the nodes of the path
 * f1, f1 f2, ... and to fn's self.  A function on the stack twice (a
 * recursion) has two nodes, one under the other, as a flame graph shows
 * it.  A stack that did not reach its thread's root hangs under a node
 * FLAME_INCOMPLETE, one cut at libtgmon's depth limit under
 * FLAME_TRUNCATED (as --folded starts their lines).  Children come in
 * order of samples, most first (ties: by frame).
 */

#define FLAME_INCOMPLETE 0xfffffff0u	/* pseudo-frames: not symbols, not PF_FRAME_OTHER + k */
#define FLAME_TRUNCATED 0xfffffff1u

struct pf_flame_node {
	uint32_t frame;		/* as pf_measure's: a symbol id, PF_FRAME_OTHER + k, PF_FRAME_UNKNOWN; or FLAME_* */
	uint32_t parent;	/* PF_NONE for the root */
	uint32_t child;		/* its first child, or PF_NONE */
	uint32_t next;		/* its next sibling, or PF_NONE */
	uint32_t depth;		/* 0 for the root */
	double total;		/* samples with the node's path on the stack */
	double self;		/* of them, ending at it */
	double wait;		/* of TOTAL, waits' (measure.h: TGSTACKS_WAIT stacks, as samples) */
};

struct pf_flame {
	struct pf_flame_node *node;
	size_t n;
	uint32_t max_depth;
};

/*
 * Recursion in a tree: shown as the stacks have it; collapsed where a
 * function calls itself through others (its later frames join its first:
 * eval -> apply -> eval -> apply -> heavy is eval -> apply -> heavy, and
 * eval -> apply -> eval -> light is eval -> light); collapsed
 * everywhere (fib -> fib -> fib is one fib too).  A sample still counts
 * once in each node of its path.
 */
enum { FLAME_RECURSION_SHOWN, FLAME_RECURSION_INDIRECT, FLAME_RECURSION_ALL };

/*
 * What a tree shows.  ROOT PF_NONE: every stack, from its outermost frame
 * (CALLERS 0), or reversed, from its innermost (CALLERS 1: bottom-up, each
 * function's callers under it).  Else the stacks with function ROOT on
 * them, from its outermost frame on: what it calls (CALLERS 0), or up to
 * the thread's root (CALLERS 1: its callers).  COLLAPSE: FLAME_RECURSION_*,
 * applied to each stack first.  Under node 0 the tree's first frames are
 * then FLAME_INCOMPLETE and FLAME_TRUNCATED stacks' markers, top-down, or
 * ROOT itself; bottom-up, the markers end a path instead.
 */
struct flame_view {
	uint32_t root;
	int callers;
	int collapse;
};

/*
 * The tree of M's stacks as V says (M outlives nothing: the tree keeps no
 * pointer into it).  0 with *OUT set, or -1 with the reason in D (out of
 * memory).  Time and memory linear in the frames of the distinct stacks.
 * flame_build() is the whole program top-down, recursion shown.
 */
int flame_build_view(const struct pf_measure *m, const struct flame_view *v, struct pf_flame **out,
    struct diag *d);
int flame_build(const struct pf_measure *m, struct pf_flame **out, struct diag *d);
void flame_free(struct pf_flame *f);

#endif
