/* cg: depth-first numbering and cycles, then time propagation (prop.c), with gprof's exact results in linear time. */
#ifndef TGPROF_CG_H
#define TGPROF_CG_H

struct profile;
struct diag;

/*
 * gprof's cg_assemble(), its first step: each symbol's calls to itself
 * taken out of its calls (into self_calls).  Before cg_assemble(), and
 * before the flat profile is ordered (its calls break the flat's ties).
 */
void cg_recursion(struct profile *p);

/*
 * The rest of gprof's cg_assemble(), after cg_recursion(): -c arcs
 * from TEXT (NULL without -c), cycles, topological numbers, print flags,
 * time fractions and propagated times in p->sym and p->arc.  0, or -1
 * with the reason in D.
 */
int cg_assemble(struct profile *p, const unsigned char *text, struct diag *d);

/*
 * cg_assemble() in two: cg_cycles() to the cycles and topological
 * numbers (phases 1 to 3), then cg_propagate() (4 and 5), which writes
 * the symbols' print flags, fractions and propagated times and the arcs'
 * times, and nothing cg_cycles() wrote.  0, or -1 with the reason in D.
 * SPARE_CPU: a processor is free meanwhile, for a helper thread that
 * makes the numbering of a large graph faster (cg.c's scout).
 */
int cg_cycles(struct profile *p, const unsigned char *text, int spare_cpu, struct diag *d);
int cg_propagate(struct profile *p, struct diag *d);

#endif
