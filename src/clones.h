/* clones: GCC's function clones (foo.isra.0, foo.cold, ...): their names, and folding them into their parents. */
#ifndef TGPROF_CLONES_H
#define TGPROF_CLONES_H

/*
 * GCC names the copies it makes of a function after it, with a suffix:
 * .isra.N (IPA-SRA), .constprop.N (constant propagation), .part.N
 * (partial inlining), .cold (code moved out of line), .lto_priv.N,
 * .clone.N, .localalias, .specialized.N, and clang's ThinLTO .llvm.N.
 * Suffixes chain: work.constprop.0.isra.0.  gprof's name filter drops
 * most of them, so their time and calls go to whatever symbol precedes
 * them.  With pf_opts.clones the engine keeps them instead, as symbols of
 * their own or folded into the function they were cloned from.
 */

#include <stddef.h>

struct profile;

/* Where NAME's clone suffix starts (0 if NAME is not a clone's name). */
size_t clone_suffix(const char *name);

/*
 * The raw clone NAME, whose suffix starts at AT, spelled as the demangler
 * spells C++ clones: "foo [clone .constprop.0] [clone .isra.0]".
 * Malloc'd, or NULL when out of memory.
 */
char *clone_name(const char *name, size_t at);

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
