/* trie: a thread's call stacks counted in a trie, by its sample handler alone, read by the writer meanwhile. */
#ifndef TGMON_TRIE_H
#define TGMON_TRIE_H

#include <stddef.h>
#include <stdint.h>

#include "tgmon.h"

#define TGMON_TRIE_SEGS 32	/* segments of nodes: 2 Mi nodes a trie */

/*
 * The stacks a thread's samples saw, outermost frame first, whose node
 * for a stack's innermost frame counts the samples of that stack.  Only
 * the thread's own sample handler counts in it, so there is no lock;
 * nodes are appended and never move, and the writer reads them
 * (tgmon_trie_each) while the thread still samples.
 */
struct tgmon_trie {
	struct tgmon_node *seg[TGMON_TRIE_SEGS];	/* published before nnodes counts them */
	uint32_t nnodes;			/* ids in use, from the first */
	uint32_t *index;			/* node ids by (parent, addr); 0: empty */
	uint32_t index_mask, index_used;
	uint64_t lost;				/* samples not recorded: the trie is full */
	uint64_t signals;			/* that brought the samples recorded */
};

/* SIZE bytes of zeroes, mapped (a system call, no lock: in a sample handler too); NULL if none. */
TGMON_HIDDEN void *tgmon_trie_map(size_t size);
/* Makes T, zeroes, an empty trie: its index and its first segment; 0 if they cannot be mapped (none is). */
TGMON_HIDDEN int tgmon_trie_init(struct tgmon_trie *t);
/*
 * Counts WEIGHT samples of thread THREAD's (its record, threads.h) stack
 * FRAME[0..N) (innermost first) with FLAGS (TGSTACKS_ROOT,
 * TGSTACKS_TRUNCATED: stacks of each kind apart), or counts them lost if
 * the trie is full.  In T's thread's sample handler.  A trie outlives its
 * thread and serves the next: the thread is the stack's outermost node.
 */
TGMON_HIDDEN void tgmon_trie_count(struct tgmon_trie *t, uint32_t thread, const uint64_t *frame, int n,
    uint32_t flags, uint64_t weight);
/* No sample counted (in a forked child: the parent's are the parent's file's). */
TGMON_HIDDEN void tgmon_trie_reset(struct tgmon_trie *t);
/*
 * Calls F(CTX, count, flags, thread, addresses innermost first, depth)
 * for each stack counted in T.  Its thread may still be sampling: a
 * stack counted after it was passed over is not seen.
 */
TGMON_HIDDEN void tgmon_trie_each(const struct tgmon_trie *t, tgmon_stack_fn *f, void *ctx);

#endif
