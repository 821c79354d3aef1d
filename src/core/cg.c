/* cg: depth-first numbering, cycles and time propagation, with gprof's exact results in linear time. */
#include "cg.h"

#include <stdlib.h>
#include <string.h>

#include "arcs.h"
#include "callscan.h"
#include "core.h"
#include "order.h"

/*
 * gprof's cg_assemble() in five phases:
 *   1. subtract recursive calls, and with -c add arcs found in the code;
 *   2. number the symbols in depth-first post-order, gluing ("glomming")
 *      the members of each strongly connected component into one cycle;
 *   3. number the cycles and count the calls into and within them;
 *   4. propagate print flags and time fractions from callers down, in
 *      topological order;
 *   5. propagate time from callees up (the average-time assumption).
 *
 * gprof walks linked lists of arcs, newest first.  Here the arcs are
 * grouped once by caller and by callee in creation order (the profile's
 * caller_arc and callee_arc, later sorted for printing); walking a group
 * backwards visits the arcs in gprof's list order.  The phases work on a
 * compact copy of each symbol (struct node, one cache line) and write the
 * results back at the end: on large graphs the random accesses of these
 * walks dominate, and 136-byte symbols would cost two or three cache
 * lines each.  Floating-point sums are made in gprof's order.
 */

#define DFN_NAN 0
#define DFN_BUSY (-1)

/* What the analysis needs of a symbol or a cycle header. */
struct node {
	double time;		/* self time (a cycle: its members') */
	double child_time;	/* time of callees, unweighted */
	double fract;		/* share of time that propagates to callers */
	double prop_self, prop_child;
	uint64_t ncalls;
	int top_order;
	int cycle;
	uint32_t head;		/* cycle header (or self) */
	uint8_t print_flag;
};

/* The analysis' working state; every array has one entry per node. */
struct cgw {
	struct profile *p;
	uint32_t cap;		/* nodes room: symbols and cycle headers */
	struct node *nd;	/* nsyms symbols, then the cycle headers */
	uint32_t *kid;		/* the callee of each callee_arc slot */
	uint32_t *par;		/* the caller of each caller_arc slot */
	uint32_t *next;		/* cycle member lists (gprof's cyc.next) */
	/* depth-first search */
	uint32_t *stack;	/* 1-based; stack[depth] is being visited */
	uint32_t *cursor;	/* per stack entry: next callee slot, counting down */
	uint32_t *pos;		/* per node: its stack index, 0 if off the stack */
	uint32_t *uf;		/* per node: union-find parent (see find_head) */
	uint32_t *tail;		/* per cycle head: last member of its list */
	uint32_t *roots;	/* stack indices whose entries are still cycle heads */
	uint32_t depth, nroots;
	int counter;
};

/* ---- phase 2: depth-first numbering (gprof's cg_dfn and find_cycle) ---- */

/*
 * gprof re-heads every member eagerly when cycles merge; a union-find with
 * path halving gives the same heads without the repeated walks.
 */
static uint32_t
find_head(struct cgw *w, uint32_t x)
{
	while (w->uf[x] != x) {
		w->uf[x] = w->uf[w->uf[x]];
		x = w->uf[x];
	}
	return x;
}

/* Appends the list headed by C to HEAD's list and makes HEAD their head. */
static void
glom(struct cgw *w, uint32_t head, uint32_t c)
{
	w->next[w->tail[head]] = c;
	w->tail[head] = w->tail[c];
	w->uf[c] = head;
}

/*
 * gprof's find_cycle(): CHILD is busy, so the stack from its cycle up is
 * one cycle.  gprof scans the stack down for CHILD or its head; both have
 * stack positions here.  Entries above that still head themselves are
 * glommed in stack order; ROOTS lists exactly them.
 */
static void
find_cycle(struct cgw *w, uint32_t child)
{
	uint32_t head = find_head(w, child), top = w->pos[child], k, first;

	if (head != child && w->pos[head] > top)
		top = w->pos[head];
	if (top == 0 || top == w->depth)
		return;		/* a call to itself (0: cannot happen, gprof exits) */
	head = find_head(w, w->stack[top]);
	for (first = w->nroots; first > 0 && w->roots[first - 1] > top; first--)
		;
	for (k = first; k < w->nroots; k++)
		glom(w, head, w->stack[w->roots[k]]);
	w->nroots = first;
}

static void
pre_visit(struct cgw *w, uint32_t id)
{
	w->depth++;
	w->stack[w->depth] = id;
	w->cursor[w->depth] = w->p->callee_start[id + 1];
	w->pos[id] = w->depth;
	w->roots[w->nroots++] = w->depth;
	w->nd[id].top_order = DFN_BUSY;
}

static void
post_visit(struct cgw *w, uint32_t id)
{
	uint32_t m;

	if (find_head(w, id) == id) {
		w->counter++;
		for (m = id; m != PF_NONE; m = w->next[m])
			w->nd[m].top_order = w->counter;
	}
	if (w->nroots > 0 && w->roots[w->nroots - 1] == w->depth)
		w->nroots--;
	w->pos[id] = 0;
	w->depth--;
}

/* gprof's recursive cg_dfn(ROOT), with an explicit stack. */
static void
dfn_from(struct cgw *w, uint32_t root)
{
	pre_visit(w, root);
	while (w->depth > 0) {
		uint32_t u = w->stack[w->depth], c;

		if (w->cursor[w->depth] == w->p->callee_start[u]) {
			post_visit(w, u);
			continue;
		}
		c = w->kid[--w->cursor[w->depth]];
		if (w->nd[c].top_order == DFN_NAN)
			pre_visit(w, c);
		else if (w->nd[c].top_order == DFN_BUSY)
			find_cycle(w, c);
	}
}

static void
free_dfn(struct cgw *w)
{
	free(w->stack);
	free(w->cursor);
	free(w->pos);
	free(w->uf);
	free(w->tail);
	free(w->roots);
	w->stack = w->cursor = w->pos = w->uf = w->tail = w->roots = NULL;
}

static int
number_all(struct cgw *w)
{
	uint32_t n = w->p->nsyms, i;

	w->stack = mem_array((size_t)n + 1, sizeof *w->stack);
	w->cursor = mem_array((size_t)n + 1, sizeof *w->cursor);
	w->pos = mem_calloc(n, sizeof *w->pos);
	w->uf = mem_array(n, sizeof *w->uf);
	w->tail = mem_array(n, sizeof *w->tail);
	w->roots = mem_array((size_t)n + 1, sizeof *w->roots);
	if (!w->stack || !w->cursor || !w->pos || !w->uf || !w->tail || !w->roots)
		return -1;
	for (i = 0; i < n; i++)
		w->uf[i] = w->tail[i] = i;
	for (i = 0; i < n; i++)
		if (w->nd[i].top_order == DFN_NAN)
			dfn_from(w, i);
	for (i = 0; i < n; i++)
		w->nd[i].head = find_head(w, i);
	free_dfn(w);
	return 0;
}

/* ---- phase 3: cycles (gprof's cycle_link) ---- */

/* Calls into cycle K from outside and between its members. */
static void
count_cycle_calls(struct cgw *w, struct pf_sym *h, uint32_t first, int k)
{
	const struct profile *p = w->p;
	uint32_t m, i;

	for (m = first; m != PF_NONE; m = w->next[m]) {
		for (i = p->caller_start[m]; i < p->caller_start[m + 1]; i++) {
			if (w->par[i] == m)
				continue;
			if (w->nd[w->par[i]].cycle == k)
				h->self_calls += p->arc[p->caller_arc[i]].count;
			else
				h->ncalls += p->arc[p->caller_arc[i]].count;
		}
	}
}

/* Cycle numbers follow the address order of their DFS heads. */
static int
link_cycles(struct cgw *w)
{
	struct profile *p = w->p;
	uint32_t i, m, n = 0, hid;

	for (i = 0; i < p->nsyms; i++)
		n += w->nd[i].head == i && w->next[i] != PF_NONE;
	/* syms.c reserved room for the headers: a cycle has at least two members. */
	if ((size_t)p->nsyms + n > w->cap)
		return -1;
	for (i = 0; i < p->nsyms; i++) {
		struct pf_sym *h;

		if (w->nd[i].head != i || w->next[i] == PF_NONE)
			continue;
		hid = p->nsyms + p->ncycles++;
		h = &p->sym[hid];
		memset(h, 0, sizeof *h);
		h->file = PF_NONE;
		h->fold = PF_NONE;
		h->cycle = (int)p->ncycles;
		h->cyc_head = hid;
		h->parents = h->children = PF_NONE;
		w->next[hid] = i;
		for (m = i; m != PF_NONE; m = w->next[m]) {
			w->nd[m].cycle = h->cycle;
			w->nd[m].head = hid;
		}
		count_cycle_calls(w, h, i, h->cycle);
		memset(&w->nd[hid], 0, sizeof w->nd[hid]);
		w->nd[hid].ncalls = h->ncalls;
		w->nd[hid].cycle = h->cycle;
		w->nd[hid].head = hid;
		w->nd[hid].print_flag = 1;
	}
	return 0;
}

/* ---- phase 4: print flags and time fractions (gprof's propagate_flags) ---- */

/* gprof's inherit_flags() for a symbol in no cycle: parents newest first. */
static void
inherit_from_callers(struct cgw *w, uint32_t id)
{
	const struct profile *p = w->p;
	struct node *c = &w->nd[id];
	uint32_t i;

	c->print_flag = 0;
	c->fract = 0.0;
	for (i = p->caller_start[id + 1]; i-- > p->caller_start[id];) {
		const struct node *par = &w->nd[w->par[i]];

		if (w->par[i] == id)
			continue;
		c->print_flag |= par->print_flag;
		if (c->ncalls != 0)
			c->fract += par->fract *
			    ((double)p->arc[p->caller_arc[i]].count / (double)c->ncalls);
	}
}

/* gprof's inherit_flags() for a cycle: the callers from outside of all members. */
static void
inherit_into_cycle(struct cgw *w, uint32_t hid)
{
	const struct profile *p = w->p;
	struct node *h = &w->nd[hid];
	uint32_t m, i;

	h->print_flag = 0;
	h->fract = 0.0;
	for (m = w->next[hid]; m != PF_NONE; m = w->next[m]) {
		for (i = p->caller_start[m + 1]; i-- > p->caller_start[m];) {
			const struct node *par = &w->nd[w->par[i]];

			if (par->head == hid)
				continue;
			h->print_flag |= par->print_flag;
			if (h->ncalls != 0)
				h->fract += par->fract *
				    ((double)p->arc[p->caller_arc[i]].count / (double)h->ncalls);
		}
	}
	for (m = w->next[hid]; m != PF_NONE; m = w->next[m]) {
		w->nd[m].print_flag = h->print_flag;
		w->nd[m].fract = h->fract;
	}
}

/* -f/-e/-F/-E/-n/-N and friends, on top of what a symbol inherited. */
static void
apply_specs(const struct symspecs *ss, uint64_t addr, struct node *c)
{
	if (!c->print_flag)
		c->print_flag = (uint8_t)symspec_chosen(ss, SPEC_INCL_GRAPH, addr);
	else if (symspec_refused(ss, SPEC_INCL_GRAPH, addr))
		c->print_flag = 0;
	if (c->fract == 0.0)
		c->fract = symspec_chosen(ss, SPEC_INCL_TIME, addr) ? 1.0 : 0.0;
	else if (symspec_refused(ss, SPEC_INCL_TIME, addr))
		c->fract = 0.0;
}

/* From the topological top (callers) down. */
static void
propagate_flags(struct cgw *w, const uint32_t *top)
{
	struct profile *p = w->p;
	uint32_t old_head = PF_NONE, i;

	for (i = p->nsyms; i-- > 0;) {
		struct node *c = &w->nd[top[i]];

		if (c->head != old_head) {
			old_head = c->head;
			if (c->head == top[i])
				inherit_from_callers(w, top[i]);
			else
				inherit_into_cycle(w, c->head);
		}
		apply_specs(&p->priv->specs, p->sym[top[i]].addr, c);
		c->prop_self = c->time * c->fract;
		p->print_time += c->prop_self;
	}
}

/* ---- phase 5: time (gprof's cycle_time and propagate_time) ---- */

static void
cycle_time(struct cgw *w)
{
	const struct profile *p = w->p;
	uint32_t k, m;

	for (k = 0; k < p->ncycles; k++) {
		struct node *h = &w->nd[p->nsyms + k];

		for (m = w->next[p->nsyms + k]; m != PF_NONE; m = w->next[m])
			if (w->nd[m].fract != 0.0)
				h->time += w->nd[m].time;
		h->prop_self = h->fract * h->time;
	}
}

/* PARENT's share of each callee's time, by call counts; callees newest first. */
static void
propagate_time(struct cgw *w, uint32_t pid, struct diag *d)
{
	struct profile *p = w->p;
	struct node *par = &w->nd[pid], *c;
	uint32_t i;

	if (par->fract == 0.0)
		return;
	for (i = p->callee_start[pid + 1]; i-- > p->callee_start[pid];) {
		struct pf_arc *arc = &p->arc[p->callee_arc[i]];
		uint32_t cid = w->kid[i];
		double share, prop_share, ratio;

		c = &w->nd[cid];
		if (arc->count == 0 || cid == pid || c->fract == 0.0)
			continue;
		if (c->head != cid) {
			if (par->cycle == c->cycle)
				continue;
			c = &w->nd[c->head];
		} else if (par->top_order <= c->top_order) {
			diag_add(d, DIAG_WARN, "[propagate] toporder botches");
			continue;
		}
		if (c->ncalls == 0)
			continue;
		ratio = (double)arc->count / (double)c->ncalls;
		arc->time = c->time * ratio;
		arc->child_time = c->child_time * ratio;
		share = arc->time + arc->child_time;
		par->child_time += share;
		prop_share = par->fract * share;
		par->prop_child += prop_share;
		arc->time *= par->fract;
		arc->child_time *= par->fract;
		if (par->head != pid) {
			w->nd[par->head].child_time += share;
			w->nd[par->head].prop_child += prop_share;
		}
	}
}

/* Symbols by topological number, ties in address order (a stable counting sort). */
static uint32_t *
top_sorted(const struct cgw *w)
{
	uint32_t n = w->p->nsyms, i, *count = mem_calloc((size_t)w->counter + 2, sizeof *count);
	uint32_t *top = mem_array(n, sizeof *top);

	if (count == NULL || top == NULL) {
		free(count);
		free(top);
		return NULL;
	}
	for (i = 0; i < n; i++)
		count[w->nd[i].top_order + 1]++;
	for (i = 1; i <= (uint32_t)w->counter + 1; i++)
		count[i] += count[i - 1];
	for (i = 0; i < n; i++)
		top[count[w->nd[i].top_order]++] = i;
	free(count);
	return top;
}

/* ---- phase 1, setup and results ---- */

/* Recursive calls, and -c arcs. */
static int
prepare(struct profile *p, uint32_t i, const unsigned char *text, struct diag *d)
{
	struct pf_sym *s = &p->sym[i];
	uint32_t a = arcs_find(p, i, i);

	if (a != PF_NONE) {
		s->ncalls -= p->arc[a].count;
		s->self_calls = p->arc[a].count;
	}
	return text != NULL ? callscan_symbol(p, i, text, d) : 0;
}

static int
setup(struct cgw *w, struct profile *p)
{
	uint32_t cap = (uint32_t)p->priv->symcap, i;

	w->p = p;
	w->cap = cap;
	/* Room for cycle headers, touched only as they are added. */
	w->nd = malloc((size_t)cap * sizeof *w->nd);
	w->next = malloc((size_t)cap * sizeof *w->next);
	if (w->nd != NULL && w->next != NULL) {
		mem_populate(w->nd, (size_t)p->nsyms * sizeof *w->nd);
		mem_populate(w->next, (size_t)p->nsyms * sizeof *w->next);
	}
	w->kid = mem_array(p->narcs, sizeof *w->kid);
	w->par = mem_array(p->narcs, sizeof *w->par);
	if (!w->nd || !w->next || !w->kid || !w->par || order_group(p) != 0)
		return -1;
	for (i = 0; i < p->narcs; i++) {
		w->kid[i] = p->arc[p->callee_arc[i]].child;
		w->par[i] = p->arc[p->caller_arc[i]].parent;
	}
	for (i = 0; i < p->nsyms; i++) {
		struct node *n = &w->nd[i];

		memset(n, 0, sizeof *n);
		n->time = p->sym[i].time;
		n->ncalls = p->sym[i].ncalls;
		n->head = i;
		w->next[i] = PF_NONE;
	}
	return 0;
}

static void
write_back(const struct cgw *w)
{
	struct profile *p = w->p;
	uint32_t i;

	for (i = 0; i < p->nsyms + p->ncycles; i++) {
		struct pf_sym *s = &p->sym[i];
		const struct node *n = &w->nd[i];

		s->time = n->time;
		s->child_time = n->child_time;
		s->fract = n->fract;
		s->prop_self = n->prop_self;
		s->prop_child = n->prop_child;
		s->top_order = n->top_order;
		s->cycle = n->cycle;
		s->cyc_head = n->head;
		s->cyc_next = w->next[i];
		s->print_flag = n->print_flag;
	}
}

static void
release(struct cgw *w)
{
	free(w->nd);
	free(w->next);
	free(w->kid);
	free(w->par);
	free_dfn(w);
}

int
cg_assemble(struct profile *p, const unsigned char *text, struct diag *d)
{
	struct cgw w;
	uint32_t *top = NULL, i;
	int rc = -1;

	for (i = 0; i < p->nsyms; i++)
		if (prepare(p, i, text, d) != 0)
			return -1;
	/* No arc is added after this: the (parent, child) index is done. */
	arcs_release_index(p);
	memset(&w, 0, sizeof w);
	if (setup(&w, p) != 0 || number_all(&w) != 0 || link_cycles(&w) != 0 ||
	    (top = top_sorted(&w)) == NULL) {
		diag_oom(d);
		goto out;
	}
	propagate_flags(&w, top);
	cycle_time(&w);
	for (i = 0; i < p->nsyms; i++)
		propagate_time(&w, top[i], d);
	write_back(&w);
	rc = 0;
out:
	free(top);
	release(&w);
	return rc;
}
