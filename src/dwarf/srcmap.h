/* srcmap: the executable's source positions, answering as gprof's calls to libbfd would, without a lookup per text byte. */
#ifndef TGPROF_SRCMAP_H
#define TGPROF_SRCMAP_H

#include <stddef.h>
#include <stdint.h>

#include "input/bin.h"

/*
 * gprof asks libbfd's bfd_find_nearest_line() for the file, function and
 * line of an address: once per function symbol, then (with -l) for every
 * text byte, twice.  libbfd's answers depend on earlier questions: the
 * first time a DWARF function without a linkage name is asked about,
 * libbfd answers with the symbol-table name and may rename the function
 * for later questions, and it caches the last symbol it found.
 *
 * A srcmap reads the DWARF itself, splits the text into spans over which
 * every answer is the same, and replays that behaviour: asked the same
 * questions in the same order, it gives libbfd's answers.  It covers what
 * compilers write (DWARF 2 to 5 in the executable itself); for anything
 * else srcmap_build() returns NULL and the caller asks libbfd.
 */
struct srcmap;

/* A srcmap of B's text, or NULL (libbfd must be asked instead). B must outlive it. */
struct srcmap *srcmap_build(struct bin *b);
void srcmap_free(struct srcmap *m);

/*
 * Whether srcmap_query() can answer for ADDR exactly.  It always can in
 * the text; outside it (symbols in .init or .plt) only where no unit's
 * addresses reach, as ELF's discarded-section addresses near 0 can.
 */
int srcmap_can_answer(const struct srcmap *m, uint64_t addr);

/*
 * One get_src_info(ADDR) of gprof: 1 with *FILE (see srcmap_file_name()),
 * *LINE and *FUNC (valid while the bin is open), or 0 when gprof gets no
 * answer.  Updates the state later answers depend on.
 */
int srcmap_query(struct srcmap *m, uint64_t addr, uint32_t *file, int *line, const char **func);

/* File ids run from 0 to srcmap_nfiles() - 1. */
const char *srcmap_file_name(const struct srcmap *m, uint32_t file);
size_t srcmap_nfiles(const struct srcmap *m);

/*
 * gprof -l's walk over every text byte in address order.  FN (if not
 * NULL) is called at the first byte of each span with the answer there,
 * when there is one; from the second walk on, that answer holds for the
 * whole span (on the first, a function's first answer may be its
 * symbol's name, as in libbfd).  A non-zero return from FN stops the walk
 * and is returned.
 */
/* How many spans a walk goes over: FN is called at most that often. */
size_t srcmap_nspans(const struct srcmap *m);

#define SRCMAP_NOFILE UINT32_MAX

/*
 * The line table over the text, span by span: FN gets each span's first
 * address with the file and line libbfd's line lookup finds there
 * (SRCMAP_NOFILE where it finds none).  Does not change any state.  A
 * non-zero return from FN stops it and is returned.
 */
typedef int (*srcmap_line_fn)(void *ctx, uint64_t addr, uint32_t file, uint32_t line);
int srcmap_lines(const struct srcmap *m, srcmap_line_fn fn, void *ctx);

typedef int (*srcmap_fn)(void *ctx, uint64_t addr, uint32_t file, int line, const char *func);
int srcmap_walk(struct srcmap *m, srcmap_fn fn, void *ctx);

#endif
