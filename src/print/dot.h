/* dot: the call graph as a graphviz digraph, drawn as gprof2dot draws gprof's output. */
#ifndef TGPROF_DOT_H
#define TGPROF_DOT_H

#include <stdio.h>

#include "export.h"

/*
 * A node per function whose total time (self and children, as its
 * call-graph entry gives it) is at least eo->node_pct percent of the call
 * graph's time: its name, total and (self) percent and calls; an edge per
 * arc between two such nodes carrying at least eo->edge_pct percent (the
 * callee's time propagated along it), with that percent and its calls;
 * colours from blue to red by share, as gprof2dot's default theme.  A
 * cycle's members are drawn in a cluster, with the arcs between them
 * whatever they carry.  With eo->measured the times are the stacks'.
 * 0, or -1 with the reason in D.
 */
int dot_write(FILE *f, struct report *r, const struct export_opts *eo, struct diag *d);

#endif
