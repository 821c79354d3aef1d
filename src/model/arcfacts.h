/* arcfacts: what the call tree reads of gprof's call graph, made once a profile: who calls out, who is called, cycles' members, whose time is exact. */
#ifndef TGPROF_ARCFACTS_H
#define TGPROF_ARCFACTS_H

#include <stddef.h>
#include <stdint.h>

#include "core/profile.h"

/* Per function and cycle (ids as the profile's, cycles after the functions), and per cycle. */
struct arcfacts {
	uint8_t *down;		/* has callees outside its cycle (a cycle: has members) */
	uint8_t *called;	/* called by another function (a cycle: from outside it) */
	/*
	 * Its whole time (self and children, as gprof propagates it) is known
	 * exactly: no time below it was shared among callers by their calls
	 * (every function under it is called from it alone), and no cycle is.
	 */
	uint8_t *exact;
	uint32_t **member;	/* per cycle: its members in gprof's order */
	size_t *nmember;
	double *cycle_whole;	/* per cycle: its members' whole times summed */
	uint32_t ncycles;	/* the profile's (it may be gone when the facts are released) */
};

/* The facts of P (with a call graph: caller_start set); 0, or -1 when out of memory (released). */
int arcfacts_make(struct arcfacts *af, const struct profile *p);
void arcfacts_release(struct arcfacts *af);

/* The function stands for its cycle (an arc's end in a cycle is the cycle as a whole). */
uint32_t arcfacts_as_node(const struct profile *p, uint32_t id);
/* An arc between two members of one cycle, which the cycle's node stands for (not a self call). */
int arcfacts_inside(const struct profile *p, uint32_t from, uint32_t to);
/*
 * The whole time of a function: its primary line's self and children in
 * gprof's call graph; of a cycle, its members' (its own line's, but for a
 * cycle nothing outside calls, whose self time gprof leaves out).
 */
double arcfacts_whole(const struct arcfacts *af, const struct profile *p, uint32_t id);

#endif
