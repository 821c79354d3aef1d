/* narrow: profile_narrow(), a loaded profile analysed again with more call-graph and time symspecs. */
#include "profile.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "order.h"
#include "prop.h"
#include "syms.h"

/*
 * -e -E -f -F -n -N fill only the call-graph and time tables, which
 * profile_load() reads in the last phases of cg_assemble() (prop.c) and
 * nowhere before: symbols, histogram, arcs, calls, cycles and topological
 * numbers, the flat and name orders are the same with or without them.
 * A narrowed profile therefore borrows all that from its root (the
 * profile profile_load() made) and owns only:
 *   sym      a copy (flags, fractions and propagated times change),
 *   arc      a copy (propagated times change),
 *   cg_order, caller_start, caller_arc, callee_start, callee_arc,
 *   priv     a shallow copy of the root's, owning only its symspecs
 *            (specs, spec, spec_names).
 * profile_free() (profile.c) frees just those when priv->root is set.
 *
 * A root loaded with pf_opts.narrowable keeps what the symspecs, the
 * propagation and the orders need (pf_private's spec_syms, graph, oplan
 * and group_slot); without it they are made for each narrowing, at
 * several times the cost of the rest.
 */

int
pf_keep_specs(struct pf_private *pv, const struct pf_spec *a, size_t na,
    const struct pf_spec *b, size_t nb)
{
	size_t k;

	pv->nspec = 0;
	if ((pv->spec = mem_calloc(na + nb + 1, sizeof *pv->spec)) == NULL)
		return -1;
	for (k = 0; k < na + nb; k++) {
		const struct pf_spec *s = k < na ? &a[k] : &b[k - na];

		if ((pv->spec[k].text = strpool_dup(&pv->spec_names, s->text)) == NULL)
			return -1;
		pv->spec[k].table = s->table;
		pv->nspec = k + 1;
	}
	return 0;
}

/* ROOT's symbols as syms_load() had them, into TAB; 0 or -1. */
static int
symbol_table(const struct profile *root, struct symtab *tab)
{
	uint32_t i;

	memset(tab, 0, sizeof *tab);
	if ((tab->ent = mem_array((size_t)root->nsyms + 1, sizeof *tab->ent)) == NULL)
		return -1;
	for (i = 0; i < root->nsyms; i++) {
		const struct pf_sym *s = &root->sym[i];
		struct symtab_ent *e = &tab->ent[i];

		memset(e, 0, sizeof *e);
		e->addr = s->addr;
		e->end_addr = s->end_addr;
		e->name = s->name;
		e->file = s->file == PF_NONE ? SYMTAB_NONE : s->file;
		e->line = s->line;
		e->is_func = s->is_func;
		e->is_static = s->is_static;
		e->mapped = s->mapped;
		e->aux = SYMTAB_NONE;
	}
	tab->len = root->nsyms;
	return 0;
}

/* The symspec tables again, for all of P's symspecs, over ROOT's symbols (the root's table if it kept one). */
static int
build_specs(struct profile *p, const struct profile *root)
{
	struct pf_private *pv = p->priv;
	struct symtab own;
	const struct symtab *tab = &root->priv->spec_syms;
	int rc;

	if (tab->ent == NULL) {
		if (symbol_table(root, &own) != 0)
			return -1;
		tab = &own;
	}
	rc = symspec_build_sorted(&pv->specs, pv->spec, pv->nspec, tab, root->name_order, &pv->files,
	    bin_leading_char(pv->bin), syms_text_end(pv));
	if (tab == &own)
		symtab_release(&own);
	return rc;
}

/* What a narrowing needs of the root: its own or, unprepared, made for P and freed by free_plan(). */
struct plan {
	const struct prop_graph *graph;
	const struct order_plan *op;
	const uint32_t *const *group_slot;
	struct prop_graph own_graph;
	struct order_plan own_op;
	uint32_t *own_slot[2];
};

static void
free_plan(struct plan *pl)
{
	prop_release(&pl->own_graph);
	order_plan_release(&pl->own_op);
	free(pl->own_slot[0]);
	free(pl->own_slot[1]);
}

/* SLOT[J]: G's slot of the arc at each place of OP's group J; 0 or -1. */
static int
group_slots(const struct profile *p, const struct prop_graph *g, const struct order_plan *op,
    uint32_t *slot[2], int j)
{
	uint32_t k;

	if ((slot[j] = mem_array((size_t)p->narcs + 1, sizeof *slot[j])) == NULL)
		return -1;
	for (k = 0; k < p->narcs; k++)
		slot[j][k] = g->arc_slot[op->group[j][k]];
	return 0;
}

/* P's order plan OP, and SLOT: G's slot of the arc at each place of OP's groups; 0 or -1. */
static int
build_plan(const struct profile *p, const struct prop_graph *g, struct order_plan *op,
    uint32_t *slot[2])
{
	return order_plan_build(p, op) != 0 || group_slots(p, g, op, slot, 0) != 0 ||
	    group_slots(p, g, op, slot, 1) != 0 ? -1 : 0;
}

/*
 * The plan, and room for P's groups of arcs, to be sorted: the root's,
 * when it kept its plan; else made for P from its groups in creation
 * order (order_group()).  0 or -1.
 */
static int
make_plan(struct profile *p, const struct profile *root, struct plan *pl)
{
	const struct pf_private *rv = root->priv;
	size_t nstart = (size_t)p->nsyms + p->ncycles + 1;

	memset(pl, 0, sizeof *pl);
	if (rv->group_slot[1] == NULL) {
		/* What the plan is made of. */
		memcpy(p->sym, root->sym, ((size_t)p->nsyms + p->ncycles) * sizeof *p->sym);
		memcpy(p->arc, root->arc, p->narcs * sizeof *p->arc);
		if (order_group(p) != 0 || prop_build(&pl->own_graph, p) != 0 ||
		    build_plan(p, &pl->own_graph, &pl->own_op, pl->own_slot) != 0)
			return -1;
		pl->graph = &pl->own_graph;
		pl->op = &pl->own_op;
		pl->group_slot = (const uint32_t *const *)pl->own_slot;
		return 0;
	}
	pl->graph = &rv->graph;
	pl->op = &rv->oplan;
	pl->group_slot = (const uint32_t *const *)rv->group_slot;
	p->caller_start = mem_array(nstart, sizeof *p->caller_start);
	p->callee_start = mem_array(nstart, sizeof *p->callee_start);
	p->caller_arc = mem_array((size_t)p->narcs + 1, sizeof *p->caller_arc);
	p->callee_arc = mem_array((size_t)p->narcs + 1, sizeof *p->callee_arc);
	if (!p->caller_start || !p->callee_start || !p->caller_arc || !p->callee_arc)
		return -1;
	memcpy(p->caller_start, root->caller_start, nstart * sizeof *p->caller_start);
	memcpy(p->callee_start, root->callee_start, nstart * sizeof *p->callee_start);
	return 0;
}

/* The arcs' times, by place in the plan's groups. */
struct group_time {
	const uint32_t *slot;		/* the place's slot in the graph, or PF_NONE */
	const double *slot_time;	/* prop_run()'s */
};

static double
time_at(const void *ctx, uint32_t place)
{
	const struct group_time *gt = ctx;
	uint32_t k = gt->slot[place];

	return k == PF_NONE ? 0.0 : gt->slot_time[2 * (size_t)k] + gt->slot_time[2 * (size_t)k + 1];
}

/* Group J again, its arcs' times from SLOT_TIME. */
static int
regroup(struct profile *p, const struct plan *pl, int j, const double *slot_time)
{
	struct group_time gt = { pl->group_slot[j], slot_time };

	return order_groups_again(p, pl->op, j, time_at, &gt);
}

/* What the second thread does: the arcs with their times, or the callees (whose sort reads them). */
struct job {
	struct profile *p;
	const struct profile *root;
	const struct plan *pl;
	const double *slot_time;
	int rc;
};

static void *
arcs_thread(void *arg)
{
	struct job *j = arg;

	prop_arcs(j->pl->graph, j->slot_time, j->root->arc, j->p->arc, j->p->narcs);
	return NULL;
}

static void *
callees_thread(void *arg)
{
	struct job *j = arg;

	j->rc = regroup(j->p, j->pl, ORDER_CALLEES, j->slot_time);
	return NULL;
}

/* RUN(J) once the second thread (THREADED: TID) has run it, or here if it could not start. */
static void
join(int threaded, pthread_t tid, void *(*run)(void *), struct job *j)
{
	if (threaded)
		pthread_join(tid, NULL);
	else
		run(j);
}

/*
 * After the sweeps (W), on two threads: the arcs, meanwhile the symbols
 * and the call-graph order; then the callers and the callees (gprof's
 * sort, where a time is NaN, reads the arcs).
 */
static int
finish(struct profile *p, const struct profile *root, const struct plan *pl,
    const struct prop_result *w, const double *slot_time, double *total)
{
	struct job j = { p, root, pl, slot_time, 0 };
	pthread_t tid;
	int threaded, rc;

	threaded = pthread_create(&tid, NULL, arcs_thread, &j) == 0;
	prop_write(w, root->sym, p, total);
	rc = order_cg_again(p, pl->op->ties, total);
	join(threaded, tid, arcs_thread, &j);
	threaded = pthread_create(&tid, NULL, callees_thread, &j) == 0;
	rc |= regroup(p, pl, ORDER_CALLERS, slot_time);
	join(threaded, tid, callees_thread, &j);
	return rc != 0 || j.rc != 0 ? -1 : 0;
}

/* P and PV as ROOT and its private state, but for what P owns: nothing yet. */
static void
borrow(struct profile *p, struct pf_private *pv, const struct profile *root)
{
	*p = *root;
	p->sym = NULL;
	p->arc = NULL;
	p->cg_order = p->caller_start = p->caller_arc = p->callee_start = p->callee_arc = NULL;
	*pv = *root->priv;
	pv->root = root;
	pv->opts = NULL;
	pv->spec = NULL;
	pv->nspec = 0;
	strpool_init(&pv->spec_names);
	memset(&pv->specs, 0, sizeof pv->specs);
	memset(&pv->arcmap, 0, sizeof pv->arcmap);
	p->priv = pv;
}

/* Room for P's own symbols and arcs, ROOT's with other times (prop_run(), prop_arcs()); 0 or -1. */
static int
room(struct profile *p, const struct profile *root)
{
	p->sym = mem_lines((size_t)root->nsyms + root->ncycles + 1, sizeof *p->sym);
	p->arc = mem_array((size_t)root->narcs + 1, sizeof *p->arc);
	return p->sym == NULL || p->arc == NULL ? -1 : 0;
}

static int
refused(const struct pf_spec *extra, size_t n, struct diag *d)
{
	size_t k;

	for (k = 0; k < n; k++) {
		enum spec_table t = extra[k].table;

		if (t != SPEC_INCL_GRAPH && t != SPEC_EXCL_GRAPH && t != SPEC_INCL_TIME &&
		    t != SPEC_EXCL_TIME) {
			diag_add(d, DIAG_ERROR, "%s: only call-graph and time symspecs "
			    "(-e -E -f -F -n -N) narrow a profile", extra[k].text);
			return 1;
		}
	}
	return 0;
}

/* The analysis of P, a copy of ROOT with its symspecs: propagation, then the orders. */
static int
analyse(struct profile *p, const struct profile *root, struct diag *d)
{
	double *slot_time = NULL, *total;
	struct prop_result *w = NULL;
	struct plan pl;
	int rc = -1;

	if (!(p->input & GMON_IN_CG)) {	/* nothing to propagate, as in load.c */
		memcpy(p->sym, root->sym, ((size_t)p->nsyms + p->ncycles) * sizeof *p->sym);
		memcpy(p->arc, root->arc, p->narcs * sizeof *p->arc);
		return 0;
	}
	total = mem_array((size_t)p->nsyms + p->ncycles + 1, sizeof *total);
	if (make_plan(p, root, &pl) != 0 || total == NULL ||
	    (slot_time = mem_array(2 * (size_t)pl.graph->nout + 1, sizeof *slot_time)) == NULL)
		diag_oom(d);
	else if ((w = prop_sweep(pl.graph, &p->priv->specs, slot_time, d)) != NULL &&
	    (rc = finish(p, root, &pl, w, slot_time, total)) != 0)
		rc = diag_oom(d);
	prop_done(w);
	free_plan(&pl);
	free(slot_time);
	free(total);
	return rc;
}

int
profile_narrow(const struct profile *base, const struct pf_spec *extra, size_t n,
    struct profile **out, struct diag *d)
{
	const struct profile *root = base->priv->root != NULL ? base->priv->root : base;
	struct profile *p;
	struct pf_private *pv;

	*out = NULL;
	if (refused(extra, n, d))
		return -1;
	p = mem_array(1, sizeof *p);
	pv = mem_array(1, sizeof *pv);
	if (p == NULL || pv == NULL) {
		free(p);
		free(pv);
		return diag_oom(d);
	}
	borrow(p, pv, root);
	if (room(p, root) != 0 ||
	    pf_keep_specs(pv, base->priv->spec, base->priv->nspec, extra, n) != 0 ||
	    build_specs(p, root) != 0) {
		profile_free(p);
		return diag_oom(d);
	}
	if (analyse(p, root, d) != 0) {
		profile_free(p);
		return -1;
	}
	*out = p;
	return 0;
}

size_t
profile_narrow_bytes(const struct profile *p)
{
	/* sym and arc copies; their indexes, orders, totals and the propagation's times */
	size_t per_sym = sizeof(struct pf_sym) + 64, per_arc = sizeof(struct pf_arc) + 32;

	return ((size_t)p->nsyms + p->ncycles + 1) * per_sym + ((size_t)p->narcs + 1) * per_arc;
}

int
pf_narrow_prepare(struct profile *p)
{
	struct pf_private *pv = p->priv;

	/* (a reloaded profile's are its image's, the same symbols: borrowed) */
	if (pv->spec_syms.ent == NULL && symbol_table(p, &pv->spec_syms) != 0)
		return -1;
	if (!(p->input & GMON_IN_CG) || pv->graph.id == NULL)
		return 0;
	return build_plan(p, &pv->graph, &pv->oplan, pv->group_slot);
}

/* An arc's time, by place in the plan's group (ctx: the profile's arcs in that group's order). */
struct own_time {
	const struct pf_arc *arc;
	const uint32_t *group;
};

static double
own_time_at(const void *ctx, uint32_t place)
{
	const struct own_time *ot = ctx;
	const struct pf_arc *a = &ot->arc[ot->group[place]];

	return a->time + a->child_time;
}

/* The call graph's order and the symbols' indexes from the plan's ties; 0 or -1. */
static int
cg_again(struct profile *p)
{
	uint32_t n = p->nsyms + p->ncycles, i;
	double *total = mem_array((size_t)n + 1, sizeof *total);
	int rc;

	if (total == NULL)
		return -1;
	for (i = 0; i < n; i++)
		total[i] = p->sym[i].prop_self + p->sym[i].prop_child;
	rc = order_cg_again(p, p->priv->oplan.ties, total);
	free(total);
	return rc;
}

/* Whether P has a plan to make: a call graph, and prop.c's layout of it kept. */
static int
planned(const struct profile *p)
{
	return (p->input & GMON_IN_CG) && p->priv->graph.id != NULL;
}

int
pf_narrow_begin(struct profile *p)
{
	struct pf_private *pv = p->priv;

	if (pv->spec_syms.ent == NULL && symbol_table(p, &pv->spec_syms) != 0)
		return -1;
	if (!(p->input & GMON_IN_CG))
		return 0;
	return order_plan_begin(p, &pv->oplan) != 0 || order_ties(p, &pv->oplan.ties) != 0 ? -1 : 0;
}

int
pf_narrow_group(struct profile *p, int j)
{
	struct pf_private *pv = p->priv;
	struct own_time ot = { p->arc, NULL };

	if (!(p->input & GMON_IN_CG))
		return 0;
	if (!planned(p))
		return j == ORDER_CALLERS ? order_callers(p) : order_callees(p);
	if (order_plan_group(p, &pv->oplan, j) != 0 ||
	    group_slots(p, &pv->graph, &pv->oplan, pv->group_slot, j) != 0)
		return -1;
	ot.group = pv->oplan.group[j];
	return order_groups_again(p, &pv->oplan, j, own_time_at, &ot);
}

int
pf_narrow_finish(struct profile *p)
{
	struct pf_private *pv = p->priv;

	if (!(p->input & GMON_IN_CG))
		return 0;
	if (!planned(p) || pv->oplan.ties == NULL)
		return order_cg(p);
	return cg_again(p);
}

void
pf_narrow_end(struct profile *p)
{
	order_plan_end(&p->priv->oplan);
}
