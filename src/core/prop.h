/* prop: gprof's propagation of print flags, time fractions and times, over the call graph in topological order. */
#ifndef TGPROF_PROP_H
#define TGPROF_PROP_H

#include <stdint.h>

#include "symspec.h"

struct profile;
struct diag;

/*
 * The last two phases of gprof's cg_assemble() (propagate_flags(),
 * cycle_time(), propagate_time()) need of the call graph only what the
 * files and the cycles fixed; the symspecs decide the rest.  A prop_graph
 * holds that part, laid out for the sweeps: nodes in topological order
 * (the symbols by top_order, ties by id, then the cycle headers by
 * number, so that a header's node is its symbol id), each with its
 * callers and callees in gprof's list order, less the arcs the sweeps
 * always skip.  Built once, it serves any symspecs (profile_narrow()).
 */
struct prop_graph {
	uint32_t n, nsyms;	/* nodes; the first nsyms are symbols */
	uint32_t *id;		/* node -> symbol id */
	uint32_t *node;		/* symbol id -> node */
	uint64_t *addr;		/* symbol node -> its address, for the symspecs */
	double *time;		/* symbol node -> self time */
	uint32_t *head;		/* node -> its cycle's header node, or itself */
	uint8_t *divides;	/* node -> its calls (a header's: from outside) are not 0 */
	/* Cycle k's members (header node nsyms + k), in gprof's order: mem[mem_start[k] ..]. */
	uint32_t *mem_start, *mem;
	/*
	 * What a symbol outside cycles inherits flags and fractions from, its
	 * callers but itself; what a header inherits from, its members'
	 * callers from outside the cycle: in[in_start[x] .. in_start[x + 1]),
	 * with count / calls of X.
	 */
	uint32_t *in_start;
	struct prop_in { uint32_t from; double ratio; } *in;
	/*
	 * Where a symbol's callees' time comes from: out[out_start[x] ..
	 * out_start[x + 1]), the callee's node (whose cycle header gives the
	 * time when it is a member), whether gprof only warns there ("toporder
	 * botches"), and count / calls of the giver; nout slots in all.
	 * arc_slot: each arc's slot, or PF_NONE.  An entry of either list is
	 * one record, as make_lists() writes each at random.
	 */
	uint32_t *out_start;
	struct prop_out { uint32_t to, botch; double ratio; } *out;
	uint32_t nout, narcs;
	uint32_t *arc_slot;
};

/*
 * Builds G from P once cg_assemble() has numbered it (symbols' top_order,
 * cycle, cyc_head, cyc_next and ncalls, the cycle headers' ncalls) with
 * its arcs grouped by caller and by callee in creation order (order_group()).
 * 0, or -1 when out of memory (G is then empty).
 */
int prop_build(struct prop_graph *g, const struct profile *p);
void prop_release(struct prop_graph *g);

/*
 * The sweeps of G under the symspec tables SS, into P, G's profile or one
 * with the same symbols: each of its symbols and headers becomes FROM's
 * (P's own, or G's profile's) with the print_flag, fract, prop_self,
 * prop_child and child_time the sweeps give (and a header its time), and
 * its print_time theirs; and into SLOT_TIME (2 * g->nout doubles) each
 * out slot's arc's time and child_time (0 where no time flows), and, if
 * not NULL, into TOTAL each symbol's and header's prop_self + prop_child
 * by id.  0, or -1 with the reason in D.
 */
int prop_run(const struct prop_graph *g, const struct pf_sym *from, struct profile *p,
    const struct symspecs *ss, double *slot_time, double *total, struct diag *d);

/*
 * prop_run() in two steps, so that the caller can make the arcs
 * (prop_arcs()) meanwhile: the sweeps, into SLOT_TIME and a result (NULL
 * with the reason in D), then the symbols, then the result freed.
 */
struct prop_result;
struct prop_result *prop_sweep(const struct prop_graph *g, const struct symspecs *ss,
    double *slot_time, struct diag *d);
void prop_write(const struct prop_result *w, const struct pf_sym *from, struct profile *p,
    double *total);
void prop_done(struct prop_result *w);

/*
 * TO[a] = FROM[a] for the N arcs, with the time and child_time of
 * SLOT_TIME (0 without a slot); in place (TO FROM), only those two are
 * written.
 */
void prop_arcs(const struct prop_graph *g, const double *slot_time, const struct pf_arc *from,
    struct pf_arc *to, uint32_t n);

#endif
