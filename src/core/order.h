/* order: the flat-profile and call-graph orders, with gprof's comparators and glibc's sort. */
#ifndef TGPROF_ORDER_H
#define TGPROF_ORDER_H

#include <stdint.h>

struct profile;

/*
 * The profile's orders, each filling its own arrays (so they may run on
 * separate threads once cg_assemble() is done; they break ties with
 * names.h's ranks); 0, or -1 when out of memory.
 *   order_flat:    flat_order (gprof's cmp_time)
 *   order_cg:      cg_order and each symbol's index (gprof's cmp_total)
 *   order_group:   the arcs grouped by caller and by callee in creation
 *                  order (caller_arc, callee_arc), as cg_assemble() needs
 *   order_callers, order_callees: those groups in gprof's print order
 */
int order_flat(struct profile *p);
int order_cg(struct profile *p);
/* order_cg() by gprof's own sort (msort_ids() with cmp_total()): where a total is NaN, and the tests' oracle. */
int order_cg_sorted(struct profile *p);
int order_group(struct profile *p);
/* order_group(), and into KID[k] the callee of callee_arc[k] (NARCS room), in the same sweep. */
int order_group_kids(struct profile *p, uint32_t *kid);
int order_callers(struct profile *p);
int order_callees(struct profile *p);

/*
 * What makes the orders again fast once profile_narrow() changed the
 * times, made once from the analysed profile:
 *   ties:   every symbol and cycle in cmp_total()'s order for equal totals;
 *   group:  per group of ORDER_CALLERS (the profile's caller_start) and
 *           ORDER_CALLEES (callee_start), its arcs in cmp_arc()'s print
 *           order for equal times;
 *   block:  the runs there that times may reorder (two arcs or more of
 *           cmp_arc()'s last class), nblock triples: first place, end,
 *           the group's symbol.
 */
enum { ORDER_CALLERS, ORDER_CALLEES };

struct order_plan {
	uint32_t *ties;
	uint32_t *group[2];
	uint32_t *block[2];
	uint32_t nblock[2];
	uint8_t *cls;		/* while it is built: each arc's class (static_groups()) */
};

/* OP from P; 0 or -1.  order_ties() is its first part. */
int order_plan_build(const struct profile *p, struct order_plan *op);

/*
 * order_plan_build() in parts, for two threads: order_plan_begin() (OP
 * emptied, the arcs' classes), then order_ties() into OP's ties and
 * order_plan_group() for each group J, in any order and at the same
 * time, then order_plan_end().  0 or -1; on -1 OP is to be released.
 */
int order_plan_begin(const struct profile *p, struct order_plan *op);
int order_plan_group(const struct profile *p, struct order_plan *op, int j);
void order_plan_end(struct order_plan *op);
void order_plan_release(struct order_plan *op);
int order_ties(const struct profile *p, uint32_t **out);

/*
 * cg_order and index again, from TIES and each symbol's and cycle's
 * prop_self + prop_child in TOTAL (by id); then group J again into the
 * profile's caller_arc or callee_arc (allocated, with its start array),
 * TIME(CTX, place) the time + child_time of the arc at a place of OP's
 * group[J] (asked only in its blocks).  0 or -1.
 */
int order_cg_again(struct profile *p, const uint32_t *ties, const double *total);
int order_groups_again(struct profile *p, const struct order_plan *op, int j,
    double (*time)(const void *, uint32_t), const void *ctx);

#endif
