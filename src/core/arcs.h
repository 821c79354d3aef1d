/* arcs: call arcs between symbols, created and counted as gprof's cg_tally() and arc_add() do. */
#ifndef TGPROF_ARCS_H
#define TGPROF_ARCS_H

#include <stddef.h>
#include <stdint.h>

struct profile;
struct diag;

/*
 * An arc record's SELF is where the callee's prologue called mcount
 * (after the frame -pg makes, or first with -mfentry): within these
 * bytes of its entry in its own program (a profile of another program
 * lands anywhere in a function).
 */
#define ARCS_ENTRY_REACH 64	/* core.h's arc_offset[] has as many */

/*
 * gprof's cg_tally(): one arc record from a gmon file, FROM a return
 * address in the caller and SELF the callee's entry.  Dropped when either
 * is unknown or the arc symspecs refuse it; else counted into an arc.
 * 0, or -1 with the reason in D.
 */
int arcs_tally(struct profile *p, uint64_t from, uint64_t self, uint64_t count, struct diag *d);

/*
 * Before the gmon files' records are tallied: each symbol's facts in a
 * compact array (pv->fact); arcs_tally_end(), once all are, counts the
 * calls into each symbol from the arcs (in pv->calls, then added to the
 * symbols') and frees both.
 * Without them (out of memory, or never begun) the tally reads the
 * symbols themselves, to the same result.
 */
void arcs_tally_begin(struct profile *p);
void arcs_tally_end(struct profile *p);

/*
 * arcs_tally() of arc records queued up to a batch, in the order given:
 * what each will read is asked of the cache first (a gmon file's arcs
 * by the million are cache misses one after the other).  arcs_flush()
 * tallies what is queued; it must be called once a file's records are
 * read, before anything reads the arcs.  0 or -1 (out of memory).
 */
int arcs_queue(struct profile *p, uint64_t from, uint64_t self, uint64_t count, struct diag *d);
int arcs_flush(struct profile *p, struct diag *d);

/*
 * Tallying in two steps, for records judged on another thread: what an
 * arc record comes to, decided without changing the profile (arcs_judge(),
 * of N records, at most ARCS_BATCH, safe beside the thread reading the
 * files once arcs_tally_begin() has run), then done (arcs_apply(), in the
 * files' order, on that thread: 0, or -1 out of memory, with the reason
 * in D).  ENTRY: where the record enters its symbol (ARCS_ENTRY_REACH:
 * beyond), or ARCS_UNKNOWN (in no symbol); PARENT -> CHILD the arc it
 * counts for, PARENT PF_NONE for none.
 */
#define ARCS_UNKNOWN 0xffff
struct arc_verdict {
	uint32_t parent, child;
	uint16_t entry;
};
void arcs_judge(const struct profile *p, const uint64_t *from, const uint64_t *self, unsigned n,
    struct arc_verdict *v);
int arcs_apply(struct profile *p, uint64_t from, uint64_t count, const struct arc_verdict *v,
    struct diag *d);

/*
 * gprof's arc_add(): COUNT more calls from PARENT to CHILD, creating the
 * arc if needed (BY_RANGE: found by -c, with count 0).  0 or -1 (memory).
 */
int arcs_add(struct profile *p, uint32_t parent, uint32_t child, uint64_t count, int by_range);

/* The arc from PARENT to CHILD, or PF_NONE. */
uint32_t arcs_find(const struct profile *p, uint32_t parent, uint32_t child);

/* Room for N arcs in the index without growing it; 0 or -1. */
int arcs_reserve_index(struct profile *p, size_t n);

/* Frees the (parent, child) index once the call graph no longer needs it. */
void arcs_release_index(struct profile *p);

#endif
