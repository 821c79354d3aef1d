/* estfold: folded stacks estimated from the call graph, for flame graphs of profiles without call stacks. */
#ifndef TGPROF_ESTFOLD_H
#define TGPROF_ESTFOLD_H

#include <stdio.h>

#include "export.h"

/*
 * --export=folded: the measured stacks (folded_write()) when eo->stacks
 * has them; else stacks estimated as gprof estimates inherited time:
 * each function's samples split among its callers in proportion to
 * their calls (a cycle's, among the cycle's callers from outside it), and
 * so on up to the functions nothing calls.  A caller already on the way
 * up (recursion) ends it, and so does ESTFOLD_DEPTH; shares under half a
 * sample go with the caller with the most calls (so that the stacks
 * reach a root and the samples add up); the counts are rounded with the
 * error carried, and the first line, a comment, says how much was left.  Such a flame
 * graph can show paths that never ran: a function called from A and B
 * looks as costly from each as its calls say, not as it was.
 * 0, or -1 with the reason in D.
 */
#define ESTFOLD_DEPTH 256
int estfold_write(FILE *f, struct report *r, const struct export_opts *eo, struct diag *d);

/*
 * The estimated stacks one by one: FN(CTX, PATH, DEPTH, COUNT), PATH the
 * stack's functions from the sampled one (PATH[0]) up, COUNT its samples
 * (1 or more); FN returns 0, or -1 to stop.  *DROPPED gets the samples
 * dropped.  0, or -1 (out of memory, or FN stopped).
 */
typedef int (*estfold_fn)(void *ctx, const uint32_t *path, size_t depth, unsigned long long count);
int estfold_walk(struct report *r, estfold_fn fn, void *ctx, double *dropped);

#endif
