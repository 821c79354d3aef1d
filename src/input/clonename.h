/* clonename: GCC's clone suffixes in symbol names (foo.isra.0, foo.cold), found and spelled as the demangler does. */
#ifndef TGPROF_CLONENAME_H
#define TGPROF_CLONENAME_H

/*
 * GCC names the copies it makes of a function after it, with a suffix:
 * .isra.N (IPA-SRA), .constprop.N (constant propagation), .part.N
 * (partial inlining), .cold (code moved out of line), .lto_priv.N,
 * .clone.N, .localalias, .specialized.N, and clang's ThinLTO .llvm.N.
 * Suffixes chain: work.constprop.0.isra.0.  gprof's name filter drops
 * most of them; core/clones.h folds them into their originals.
 */

#include <stddef.h>

/* Where NAME's clone suffix starts (0 if NAME is not a clone's name). */
size_t clone_suffix(const char *name);

/*
 * The raw clone NAME, whose suffix starts at AT, spelled as the demangler
 * spells C++ clones: "foo [clone .constprop.0] [clone .isra.0]".
 * Malloc'd, or NULL when out of memory.
 */
char *clone_name(const char *name, size_t at);

#endif
