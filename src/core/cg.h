/* cg: depth-first numbering and cycles, then time propagation (prop.c), with gprof's exact results in linear time. */
#ifndef TGPROF_CG_H
#define TGPROF_CG_H

struct profile;
struct diag;

/*
 * gprof's cg_assemble() after the files are read: recursion, -c arcs
 * from TEXT (NULL without -c), cycles, topological numbers, print flags,
 * time fractions and propagated times in p->sym and p->arc.  0, or -1
 * with the reason in D.
 */
int cg_assemble(struct profile *p, const unsigned char *text, struct diag *d);

#endif
