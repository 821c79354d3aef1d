/* order: the flat-profile and call-graph orders, with gprof's comparators and glibc's sort. */
#ifndef TGPROF_ORDER_H
#define TGPROF_ORDER_H

struct profile;

/*
 * The profile's orders, each filling its own arrays (so they may run on
 * separate threads once cg_assemble() is done); 0, or -1 when out of
 * memory.
 *   order_names:   name_order and name_rank (raw names, strcmp)
 *   order_flat:    flat_order (gprof's cmp_time)
 *   order_cg:      cg_order and each symbol's index (gprof's cmp_total)
 *   order_group:   the arcs grouped by caller and by callee in creation
 *                  order (caller_arc, callee_arc), as cg_assemble() needs
 *   order_callers, order_callees: those groups in gprof's print order
 */
int order_names(struct profile *p);
int order_flat(struct profile *p);
int order_cg(struct profile *p);
int order_group(struct profile *p);
int order_callers(struct profile *p);
int order_callees(struct profile *p);

#endif
