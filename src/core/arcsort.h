/* arcsort: arc records merged into arcs by one radix sort of their keys, instead of an index probe each. */
#ifndef TGPROF_ARCSORT_H
#define TGPROF_ARCSORT_H

#include <stddef.h>

struct profile;

/*
 * Before the gmon files' NREC arc records are tallied: tally by sorting
 * when a record's key (parent, child, record number) fits 64 bits (core.h,
 * pf_private.arckey).  Returns 1 if so, 0 if the index must serve, -1 if
 * out of memory.
 */
int arcs_sort_begin(struct profile *p, size_t nrec);

/*
 * The provisional arcs kept while tallying by sorting merged into gprof's
 * arcs: one per (parent, child), in the order of its first record, its
 * count their sum, linked into the lists newest first as arc_add() links
 * them.  Afterwards records are tallied through the index.  Nothing is
 * done when not tallying by sorting.  0, or -1 (out of memory: the arcs
 * are then left as they were).
 */
int arcs_settle(struct profile *p);

#endif
