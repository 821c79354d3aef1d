/* clones: folding GCC's function clones (foo.isra.0, foo.cold, ...) into the functions they were made from. */
#ifndef TGPROF_CLONES_H
#define TGPROF_CLONES_H

/*
 * With pf_opts.clones the engine keeps GCC's clones (input/clonename.h)
 * instead of letting gprof's name filter drop them: as symbols of their
 * own, or folded into the function they were cloned from.
 */

struct profile;

/*
 * PF_CLONES_FOLD: points every clone symbol's fold at the function it was
 * cloned from (the symbol with the name before the suffix; in the same
 * source file when there are several) and links each function's clones
 * (pf_private.clone_link).  A clone without such a function stays a symbol of
 * its own.  Run on the symbols before any time or arc is charged; 0 or -1
 * (out of memory).
 */
int clones_fold(struct profile *p);

#endif
