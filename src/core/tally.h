/* tally: a measure's times from its stacks: each stack weighed (the profiler's out, -pg's calls' cost out), then counted. */
#ifndef TGPROF_TALLY_H
#define TGPROF_TALLY_H

#include "measure.h"
#include "truth.h"

/*
 * M's times from its stacks (m->stack, m->frame, m->nother; the rest of
 * M is rewritten): each stack's weight, its count as the program without
 * -pg would have it under O with M->call_ps (truth.h): 0 for a stack
 * whose innermost frame in the program is the profiler's (unless it
 * counts), its count less its share of the calls' cost when its
 * innermost frame is a function's own code (each function's stacks
 * scaled alike, so that they lose its calls times the cost in all);
 * then every function and arc on a stack counted once with that weight.
 * P is the profile M was made for.  0, or -1 when out of memory.
 */
int tally_count(struct pf_measure *m, const struct profile *p, const struct truth_opts *o);

#endif
