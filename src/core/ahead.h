/* ahead: the later half of a gmon file's arc records judged on a helper thread while the earlier half is tallied. */
#ifndef TGPROF_AHEAD_H
#define TGPROF_AHEAD_H

#include <stddef.h>

#include "arcs.h"
#include "input/gmon.h"

struct profile;

/*
 * Finding each arc record's symbols is most of a load's reading (random
 * reads of the symbol index and the facts, two a record); a file's
 * records can be judged anywhere (arcs_judge()), but their arcs must be
 * made in its order.  A GNU file's arc records usually follow one another
 * from its first to its end: ahead_start() judges those from the middle
 * of that run on, at the places they would be, while the reading thread
 * tallies the first half; ahead_verdict() then gives the verdict of the
 * record the reading reached, if one was judged at its very place.  A
 * record is judged from the bytes the reading decodes, so whatever the
 * file holds a verdict given is that record's.
 */
struct ahead;

/*
 * For file F (its records counted by gmon_count_arcs(), LAY its layout)
 * of P, once arcs_tally_begin() has run: a helper thread judging its
 * later records, or NULL where not worth one (a small or BSD file),
 * without the facts, or out of memory.  P's symbols, index, facts and
 * arc symspecs must not change until ahead_free().
 */
struct ahead *ahead_start(const struct profile *p, const struct gmon_file *f,
    const struct gmon_layout *lay);

/*
 * The verdict of the arc record at byte AT of the file, or NULL if none
 * was judged there (the reading judges it itself).  The first call for a
 * record at or past the middle waits for the helper.  A may be NULL.
 */
const struct arc_verdict *ahead_verdict(struct ahead *a, size_t at);

/* Waits for the helper and frees A (NULL: nothing). */
void ahead_free(struct ahead *a);

#endif
