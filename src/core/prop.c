/* prop: gprof's propagation of print flags, time fractions and times, over the call graph in topological order. */
#include "prop.h"

#include <stdlib.h>
#include <string.h>

#include "core.h"

/*
 * gprof walks its symbols in topological order and, for each, the arcs
 * of linked lists: on a large graph nearly every step is a cache miss in
 * the 128-byte symbols and 40-byte arcs.  Here the sweeps read compact
 * arrays in node order, and only the node at the other end of an arc at
 * random.  Every sum is made in gprof's order, with the same operands,
 * so the results are gprof's to the bit.
 */

void
prop_release(struct prop_graph *g)
{
	free(g->id);
	free(g->node);
	free(g->addr);
	free(g->time);
	free(g->head);
	free(g->divides);
	free(g->mem_start);
	free(g->mem);
	free(g->in_start);
	free(g->in_from);
	free(g->in_ratio);
	free(g->out_start);
	free(g->out_to);
	free(g->out_arc);
	free(g->out_ratio);
	free(g->out_botch);
	free(g->arc_slot);
	memset(g, 0, sizeof *g);
}

/* The symbols by topological number, ties by id (a stable counting sort), then the headers. */
static int
place_nodes(struct prop_graph *g, const struct profile *p)
{
	uint32_t *node_of = g->node;
	uint32_t i, max = 0, *count;

	for (i = 0; i < p->nsyms; i++)
		if ((uint32_t)p->sym[i].top_order > max)
			max = (uint32_t)p->sym[i].top_order;
	if ((count = mem_calloc((size_t)max + 2, sizeof *count)) == NULL)
		return -1;
	for (i = 0; i < p->nsyms; i++)
		count[(uint32_t)p->sym[i].top_order + 1]++;
	for (i = 1; i <= max + 1; i++)
		count[i] += count[i - 1];
	for (i = 0; i < p->nsyms; i++) {
		node_of[i] = count[p->sym[i].top_order]++;
		g->id[node_of[i]] = i;
	}
	for (i = p->nsyms; i < g->n; i++)
		g->id[i] = node_of[i] = i;
	free(count);
	return 0;
}

/* Node facts, and the members of each cycle in gprof's order (cyc_next from the header). */
static int
node_facts(struct prop_graph *g, const struct profile *p)
{
	uint32_t x, k, m, nmem = 0;

	for (x = 0; x < g->n; x++) {
		const struct pf_sym *s = &p->sym[g->id[x]];

		if (x < g->nsyms) {
			g->addr[x] = s->addr;
			g->time[x] = s->time;
			nmem += s->cyc_head != g->id[x];
		}
		g->head[x] = g->node[s->cyc_head];
		g->divides[x] = s->ncalls != 0;
	}
	if ((g->mem = mem_array((size_t)nmem + 1, sizeof *g->mem)) == NULL)
		return -1;
	for (nmem = 0, k = 0; k < g->n - g->nsyms; k++) {
		g->mem_start[k] = nmem;
		m = p->sym[g->nsyms + k].cyc_next;
		for (; m != PF_NONE && nmem < g->nsyms; m = p->sym[m].cyc_next)
			g->mem[nmem++] = g->node[m];
	}
	g->mem_start[k] = nmem;
	return 0;
}

static double
ratio(uint64_t count, uint64_t calls)
{
	return calls != 0 ? (double)count / (double)calls : 0.0;
}

/*
 * Symbol MID's callers, newest arc first, but those that SKIP says, into
 * in_from and in_ratio from slot AT with count / CALLS (NULL arrays: only
 * counted); returns the slot after them.  SKIP is X's own node (itself),
 * or for a cycle header X, X (the callers within its cycle).
 */
static size_t
add_callers(struct prop_graph *g, const struct profile *p, uint32_t mid, uint32_t x,
    uint64_t calls, size_t at)
{
	uint32_t i;

	for (i = p->caller_start[mid + 1]; i-- > p->caller_start[mid];) {
		const struct pf_arc *a = &p->arc[p->caller_arc[i]];
		uint32_t from = g->node[a->parent];

		if (x < g->nsyms ? from == x : g->head[from] == x)
			continue;
		if (g->in_from != NULL) {
			g->in_from[at] = from;
			g->in_ratio[at] = ratio(a->count, calls);
		}
		at++;
	}
	return at;
}

/*
 * What node X inherits flags and fractions from, gprof's inherit_flags():
 * a symbol outside cycles, its callers but itself; a header, each
 * member's callers from outside the cycle, in member order; a member,
 * nothing (its header does).
 */
static size_t
callers_of(struct prop_graph *g, const struct profile *p, uint32_t x, size_t at)
{
	uint64_t calls = p->sym[g->id[x]].ncalls;
	uint32_t k;

	if (g->head[x] != x)
		return at;
	if (x < g->nsyms)
		return add_callers(g, p, g->id[x], x, calls, at);
	for (k = g->mem_start[x - g->nsyms]; k < g->mem_start[x - g->nsyms + 1]; k++)
		at = add_callers(g, p, g->id[g->mem[k]], x, calls, at);
	return at;
}

/*
 * The callees whose time symbol node X takes a share of, as callers_of()
 * does; gprof's propagate_time() skips, whatever the fractions, an arc
 * without calls, to itself, within X's cycle, or into a callee or cycle
 * without calls.
 */
static size_t
callees_of(struct prop_graph *g, const struct profile *p, uint32_t x, size_t at)
{
	const struct pf_sym *s = &p->sym[g->id[x]];
	uint32_t i;

	for (i = p->callee_start[g->id[x] + 1]; i-- > p->callee_start[g->id[x]];) {
		const struct pf_arc *a = &p->arc[p->callee_arc[i]];
		const struct pf_sym *c = &p->sym[a->child];
		uint32_t to = g->node[a->child], giver = g->head[to];
		int botch = 0;

		if (a->count == 0 || a->child == g->id[x])
			continue;
		if (giver != to && s->cycle == c->cycle)
			continue;
		if (giver == to && s->top_order <= c->top_order)
			botch = 1;
		else if (p->sym[g->id[giver]].ncalls == 0)
			continue;
		if (g->out_to != NULL) {
			g->out_to[at] = to;
			g->out_arc[at] = p->callee_arc[i];
			g->out_botch[at] = (uint8_t)botch;
			g->out_ratio[at] = botch ? 0.0 : ratio(a->count, p->sym[g->id[giver]].ncalls);
		}
		at++;
	}
	return at;
}

/* Both lists: counted, then filled. */
static int
make_lists(struct prop_graph *g, const struct profile *p)
{
	size_t nin = 0, nout = 0;
	uint32_t x;

	for (x = 0; x < g->n; x++) {
		nin = callers_of(g, p, x, nin);
		if (x < g->nsyms)
			nout = callees_of(g, p, x, nout);
	}
	if (nin >= UINT32_MAX || nout >= UINT32_MAX)
		return -1;
	g->in_from = mem_array(nin + 1, sizeof *g->in_from);
	g->in_ratio = mem_array(nin + 1, sizeof *g->in_ratio);
	g->out_to = mem_array(nout + 1, sizeof *g->out_to);
	g->out_arc = mem_array(nout + 1, sizeof *g->out_arc);
	g->out_botch = mem_array(nout + 1, sizeof *g->out_botch);
	g->out_ratio = mem_array(nout + 1, sizeof *g->out_ratio);
	if (!g->in_from || !g->in_ratio || !g->out_to || !g->out_arc || !g->out_botch || !g->out_ratio)
		return -1;
	nin = nout = 0;
	for (x = 0; x < g->n; x++) {
		g->in_start[x] = (uint32_t)nin;
		nin = callers_of(g, p, x, nin);
		g->out_start[x] = (uint32_t)nout;
		if (x < g->nsyms)
			nout = callees_of(g, p, x, nout);
	}
	g->in_start[g->n] = (uint32_t)nin;
	g->out_start[g->n] = (uint32_t)nout;
	g->nout = (uint32_t)nout;
	return 0;
}

/* Each arc's out slot, or PF_NONE; 0 or -1. */
static int
slot_arcs(struct prop_graph *g)
{
	uint32_t a, k;

	if ((g->arc_slot = mem_array((size_t)g->narcs + 1, sizeof *g->arc_slot)) == NULL)
		return -1;
	for (a = 0; a < g->narcs; a++)
		g->arc_slot[a] = PF_NONE;
	for (k = 0; k < g->nout; k++)
		g->arc_slot[g->out_arc[k]] = k;
	return 0;
}

int
prop_build(struct prop_graph *g, const struct profile *p)
{
	uint32_t n = p->nsyms + p->ncycles;

	memset(g, 0, sizeof *g);
	g->n = n;
	g->nsyms = p->nsyms;
	g->narcs = p->narcs;
	g->id = mem_array((size_t)n + 1, sizeof *g->id);
	g->node = mem_array((size_t)n + 1, sizeof *g->node);
	g->addr = mem_array((size_t)p->nsyms + 1, sizeof *g->addr);
	g->time = mem_array((size_t)p->nsyms + 1, sizeof *g->time);
	g->head = mem_array((size_t)n + 1, sizeof *g->head);
	g->divides = mem_array((size_t)n + 1, sizeof *g->divides);
	g->mem_start = mem_array((size_t)p->ncycles + 1, sizeof *g->mem_start);
	g->in_start = mem_array((size_t)n + 1, sizeof *g->in_start);
	g->out_start = mem_array((size_t)n + 1, sizeof *g->out_start);
	if (!g->id || !g->node || !g->addr || !g->time || !g->head || !g->divides || !g->mem_start ||
	    !g->in_start || !g->out_start || place_nodes(g, p) != 0 || node_facts(g, p) != 0 ||
	    make_lists(g, p) != 0 || slot_arcs(g) != 0) {
		prop_release(g);
		return -1;
	}
	return 0;
}

void
prop_arcs(const struct prop_graph *g, const double *slot_time, const struct pf_arc *from,
    struct pf_arc *to, uint32_t n)
{
	uint32_t a, k;

	for (a = 0; a < n; a++) {
		to[a] = from[a];
		k = a < g->narcs ? g->arc_slot[a] : PF_NONE;
		to[a].time = k != PF_NONE ? slot_time[2 * (size_t)k] : 0.0;
		to[a].child_time = k != PF_NONE ? slot_time[2 * (size_t)k + 1] : 0.0;
	}
}

/* What the sweeps compute, per node. */
struct sweep {
	const struct prop_graph *g;
	uint8_t *flag;		/* print_flag */
	double *fract, *self, *child, *child_time;
	double *cycle_time;	/* per cycle: its members' time (gprof's hist.time of the header) */
	double print_time;
	double *slot_time;	/* prop_run()'s */
};

/* gprof's inherit_flags() for node X: a symbol outside cycles, or a header. */
static void
inherit(struct sweep *w, uint32_t x)
{
	const struct prop_graph *g = w->g;
	uint32_t k;
	uint8_t flag = 0;
	double fract = 0.0;

	for (k = g->in_start[x]; k < g->in_start[x + 1]; k++) {
		flag |= w->flag[g->in_from[k]];
		if (g->divides[x])
			fract += w->fract[g->in_from[k]] * g->in_ratio[k];
	}
	w->flag[x] = flag;
	w->fract[x] = fract;
}

/* -f/-e/-F/-E/-n/-N and friends, on top of what node X inherited. */
static void
apply_specs(struct sweep *w, const struct symspecs *ss, uint32_t x)
{
	uint64_t addr = w->g->addr[x];

	if (!w->flag[x])
		w->flag[x] = (uint8_t)symspec_chosen(ss, SPEC_INCL_GRAPH, addr);
	else if (symspec_refused(ss, SPEC_INCL_GRAPH, addr))
		w->flag[x] = 0;
	if (w->fract[x] == 0.0)
		w->fract[x] = symspec_chosen(ss, SPEC_INCL_TIME, addr) ? 1.0 : 0.0;
	else if (symspec_refused(ss, SPEC_INCL_TIME, addr))
		w->fract[x] = 0.0;
}

/* gprof's propagate_flags(): from the topological top (callers) down. */
static void
sweep_flags(struct sweep *w, const struct symspecs *ss)
{
	const struct prop_graph *g = w->g;
	uint32_t old_head = PF_NONE, x, k;

	for (x = g->nsyms; x-- > 0;) {
		uint32_t h = g->head[x];

		if (h != old_head) {
			old_head = h;
			inherit(w, h);
			for (k = h != x ? g->mem_start[h - g->nsyms] : 0; h != x &&
			    k < g->mem_start[h - g->nsyms + 1]; k++) {
				w->flag[g->mem[k]] = w->flag[h];	/* the cycle's, to its members */
				w->fract[g->mem[k]] = w->fract[h];
			}
		}
		apply_specs(w, ss, x);
		w->self[x] = g->time[x] * w->fract[x];
		w->print_time += w->self[x];
	}
}

/* gprof's cycle_time(): a cycle's time is that of its members that propagate some. */
static void
sweep_cycles(struct sweep *w)
{
	const struct prop_graph *g = w->g;
	uint32_t c, k;

	for (c = 0; c < g->n - g->nsyms; c++) {
		double t = 0.0;

		for (k = g->mem_start[c]; k < g->mem_start[c + 1]; k++)
			if (w->fract[g->mem[k]] != 0.0)
				t += g->time[g->mem[k]];
		w->cycle_time[c] = t;
		w->self[g->nsyms + c] = w->fract[g->nsyms + c] * t;
	}
}

/*
 * gprof's propagate_time() for node X: its share of each callee's time,
 * by calls; its arcs' times into slot_time (0 where none flows).
 */
static void
take_time(struct sweep *w, uint32_t x, struct diag *d)
{
	const struct prop_graph *g = w->g;
	double fract = w->fract[x], *st = w->slot_time;
	uint32_t k, b = g->out_start[x], e = g->out_start[x + 1];

	memset(st + 2 * (size_t)b, 0, 2 * (size_t)(e - b) * sizeof *st);
	if (fract == 0.0)
		return;
	for (k = b; k < e; k++) {
		uint32_t to = g->out_to[k], giver = g->head[to];
		double t, ct, share, prop_share;

		if (w->fract[to] == 0.0)
			continue;
		if (g->out_botch[k]) {
			diag_add(d, DIAG_WARN, "[propagate] toporder botches");
			continue;
		}
		t = (giver < g->nsyms ? g->time[giver] : w->cycle_time[giver - g->nsyms]) *
		    g->out_ratio[k];
		ct = w->child_time[giver] * g->out_ratio[k];
		share = t + ct;
		w->child_time[x] += share;
		prop_share = fract * share;
		w->child[x] += prop_share;
		st[2 * (size_t)k] = t * fract;
		st[2 * (size_t)k + 1] = ct * fract;
		if (g->head[x] != x) {
			w->child_time[g->head[x]] += share;
			w->child[g->head[x]] += prop_share;
		}
	}
}

/* Into the symbols in id order: they are written whole, the sweep's arrays read at random. */
static void
write_back(const struct sweep *w, const struct pf_sym *from, struct profile *p)
{
	const struct prop_graph *g = w->g;
	uint32_t i;

	for (i = 0; i < g->n; i++) {
		struct pf_sym *s = &p->sym[i];
		uint32_t x = g->node[i];

		*s = from[i];
		s->print_flag = w->flag[x];
		s->fract = w->fract[x];
		s->prop_self = w->self[x];
		s->prop_child = w->child[x];
		s->child_time = w->child_time[x];
		if (x >= g->nsyms)
			s->time = w->cycle_time[x - g->nsyms];
	}
	p->print_time = w->print_time;
}

int
prop_run(const struct prop_graph *g, const struct pf_sym *from, struct profile *p,
    const struct symspecs *ss, double *slot_time, struct diag *d)
{
	struct sweep w;
	uint32_t x;
	int rc = -1;

	memset(&w, 0, sizeof w);
	w.g = g;
	w.slot_time = slot_time;
	w.flag = mem_calloc((size_t)g->n + 1, sizeof *w.flag);
	w.fract = mem_calloc((size_t)g->n + 1, sizeof *w.fract);
	w.self = mem_calloc((size_t)g->n + 1, sizeof *w.self);
	w.child = mem_calloc((size_t)g->n + 1, sizeof *w.child);
	w.child_time = mem_calloc((size_t)g->n + 1, sizeof *w.child_time);
	w.cycle_time = mem_calloc((size_t)(g->n - g->nsyms) + 1, sizeof *w.cycle_time);
	if (w.flag && w.fract && w.self && w.child && w.child_time && w.cycle_time) {
		sweep_flags(&w, ss);
		sweep_cycles(&w);
		for (x = 0; x < g->nsyms; x++)
			take_time(&w, x, d);
		write_back(&w, from, p);
		rc = 0;
	} else {
		diag_oom(d);
	}
	free(w.flag);
	free(w.fract);
	free(w.self);
	free(w.child);
	free(w.child_time);
	free(w.cycle_time);
	return rc;
}
