/* cg: depth-first numbering, cycles and time propagation, with gprof's exact results in linear time. */
#include "pfpriv.h"

#include <stdlib.h>
#include <string.h>

#include "msort.h"

/*
 * gprof's cg_assemble() in five phases:
 *   1. subtract recursive calls, and with -c add arcs found in the code;
 *   2. number the symbols in depth-first post-order, gluing ("glomming")
 *      the members of each strongly connected component into one cycle;
 *   3. number the cycles and count the calls into and within them;
 *   4. propagate print flags and time fractions from callers down, in
 *      topological order;
 *   5. propagate time from callees up (the average-time assumption).
 * The call-graph order itself is in order.c.
 */

#define DFN_NAN 0
#define DFN_BUSY (-1)

/*
 * State of the depth-first walk.  gprof recurses and, on each back edge,
 * scans its stack and walks cycle member lists; here the same answers
 * come from: POS (stack index of a node, 0 if not on the stack), the
 * stack of entries that are still their own cycle heads (ROOTS), each
 * head's last member (TAIL), and a union-find (UF) in place of gprof's
 * eager re-heading of every member.
 */
struct dfn {
	struct profile *p;
	uint32_t *stack;	/* 1-based; stack[depth] is the node being visited */
	uint32_t *cursor;	/* next arc to follow for each stack entry */
	uint32_t *pos;		/* per node */
	uint32_t *uf;		/* per node: union-find parent */
	uint32_t *tail;		/* per head: last member of its list */
	uint32_t *roots;	/* stack indices whose entries head themselves */
	uint32_t depth, nroots;
	int counter;
};

static uint32_t
find_head(struct dfn *w, uint32_t x)
{
	while (w->uf[x] != x) {
		w->uf[x] = w->uf[w->uf[x]];	/* path halving */
		x = w->uf[x];
	}
	return x;
}

/* Appends the list headed by C to HEAD's list and makes HEAD their head. */
static void
glom(struct dfn *w, uint32_t head, uint32_t c)
{
	struct pf_sym *s = w->p->sym;

	s[w->tail[head]].cyc_next = c;
	w->tail[head] = w->tail[c];
	w->uf[c] = head;
}

/* gprof's find_cycle(): CHILD is busy, so the stack from its cycle up is one cycle. */
static void
find_cycle(struct dfn *w, uint32_t child)
{
	uint32_t head = find_head(w, child), top = w->pos[child], k, first;

	if (head != child && w->pos[head] > top)
		top = w->pos[head];
	if (top == 0 || top == w->depth)
		return;		/* a call to itself (0: cannot happen, gprof exits) */
	head = find_head(w, w->stack[top]);
	/* Entries above TOP that still head themselves, in stack order. */
	for (first = w->nroots; first > 0 && w->roots[first - 1] > top; first--)
		;
	for (k = first; k < w->nroots; k++)
		glom(w, head, w->stack[w->roots[k]]);
	w->nroots = first;
}

static void
pre_visit(struct dfn *w, uint32_t id)
{
	w->depth++;
	w->stack[w->depth] = id;
	w->cursor[w->depth] = w->p->sym[id].children;
	w->pos[id] = w->depth;
	w->roots[w->nroots++] = w->depth;
	w->p->sym[id].top_order = DFN_BUSY;
}

static void
post_visit(struct dfn *w, uint32_t id)
{
	struct pf_sym *s = w->p->sym;
	uint32_t m;

	if (find_head(w, id) == id) {
		w->counter++;
		for (m = id; m != PF_NONE; m = s[m].cyc_next)
			s[m].top_order = w->counter;
	}
	if (w->nroots > 0 && w->roots[w->nroots - 1] == w->depth)
		w->nroots--;
	w->pos[id] = 0;
	w->depth--;
}

/* gprof's recursive cg_dfn(ROOT), with an explicit stack. */
static void
dfn_from(struct dfn *w, uint32_t root)
{
	struct pf_sym *s = w->p->sym;

	pre_visit(w, root);
	while (w->depth > 0) {
		uint32_t a = w->cursor[w->depth], c;

		if (a == PF_NONE) {
			post_visit(w, w->stack[w->depth]);
			continue;
		}
		w->cursor[w->depth] = w->p->arc[a].next_child;
		c = w->p->arc[a].child;
		if (s[c].top_order == DFN_NAN)
			pre_visit(w, c);
		else if (s[c].top_order == DFN_BUSY)
			find_cycle(w, c);
	}
}

static int
number_all(struct profile *p)
{
	struct dfn w;
	uint32_t n = p->nsyms, i;
	int rc = -1;

	memset(&w, 0, sizeof w);
	w.p = p;
	w.stack = mem_array((size_t)n + 1, sizeof *w.stack);
	w.cursor = mem_array((size_t)n + 1, sizeof *w.cursor);
	w.pos = mem_calloc(n, sizeof *w.pos);
	w.uf = mem_array(n, sizeof *w.uf);
	w.tail = mem_array(n, sizeof *w.tail);
	w.roots = mem_array((size_t)n + 1, sizeof *w.roots);
	if (w.stack && w.cursor && w.pos && w.uf && w.tail && w.roots) {
		for (i = 0; i < n; i++)
			w.uf[i] = w.tail[i] = i;
		for (i = 0; i < n; i++)
			if (p->sym[i].top_order == DFN_NAN)
				dfn_from(&w, i);
		for (i = 0; i < n; i++)
			p->sym[i].cyc_head = find_head(&w, i);
		rc = 0;
	}
	free(w.stack);
	free(w.cursor);
	free(w.pos);
	free(w.uf);
	free(w.tail);
	free(w.roots);
	return rc;
}

/* Calls into cycle K from outside and between its members. */
static void
count_cycle_calls(struct profile *p, struct pf_sym *h, uint32_t first, int k)
{
	uint32_t m, a;

	for (m = first; m != PF_NONE; m = p->sym[m].cyc_next) {
		for (a = p->sym[m].parents; a != PF_NONE; a = p->arc[a].next_parent) {
			const struct pf_arc *arc = &p->arc[a];

			if (arc->parent == m)
				continue;
			if (p->sym[arc->parent].cycle == k)
				h->self_calls += arc->count;
			else
				h->ncalls += arc->count;
		}
	}
}

/* gprof's cycle_link(): cycles numbered in address order of their DFS heads. */
static int
link_cycles(struct profile *p)
{
	uint32_t i, m, n = 0, hid;
	struct pf_sym *h;

	for (i = 0; i < p->nsyms; i++)
		n += p->sym[i].cyc_head == i && p->sym[i].cyc_next != PF_NONE;
	if (n == 0)
		return 0;
	if (mem_reserve(&p->sym, &p->priv->symcap, (size_t)p->nsyms + n, sizeof *p->sym) != 0)
		return -1;
	for (i = 0; i < p->nsyms; i++) {
		if (p->sym[i].cyc_head != i || p->sym[i].cyc_next == PF_NONE)
			continue;
		hid = p->nsyms + p->ncycles++;
		h = &p->sym[hid];
		memset(h, 0, sizeof *h);
		h->file = PF_NONE;
		h->print_flag = 1;
		h->cycle = (int)p->ncycles;
		h->cyc_head = hid;
		h->cyc_next = i;
		h->parents = h->children = PF_NONE;
		for (m = i; m != PF_NONE; m = p->sym[m].cyc_next) {
			p->sym[m].cycle = h->cycle;
			p->sym[m].cyc_head = hid;
		}
		count_cycle_calls(p, h, i, h->cycle);
	}
	return 0;
}

/* gprof's inherit_flags(): print flag and time fraction from the callers. */
static void
inherit_flags(struct profile *p, uint32_t id)
{
	struct pf_sym *s = p->sym, *c = &s[id], *h;
	uint32_t a, m;

	if (c->cyc_head == id) {
		c->print_flag = 0;
		c->fract = 0.0;
		for (a = c->parents; a != PF_NONE; a = p->arc[a].next_parent) {
			const struct pf_sym *par = &s[p->arc[a].parent];

			if (p->arc[a].parent == id)
				continue;
			c->print_flag |= par->print_flag;
			if (c->ncalls != 0)
				c->fract += par->fract * ((double)p->arc[a].count / (double)c->ncalls);
		}
		return;
	}
	h = &s[c->cyc_head];
	h->print_flag = 0;
	h->fract = 0.0;
	for (m = h->cyc_next; m != PF_NONE; m = s[m].cyc_next) {
		for (a = s[m].parents; a != PF_NONE; a = p->arc[a].next_parent) {
			const struct pf_sym *par = &s[p->arc[a].parent];

			if (par->cyc_head == c->cyc_head)
				continue;
			h->print_flag |= par->print_flag;
			if (h->ncalls != 0)
				h->fract += par->fract * ((double)p->arc[a].count / (double)h->ncalls);
		}
	}
	for (m = h->cyc_next; m != PF_NONE; m = s[m].cyc_next) {
		s[m].print_flag = h->print_flag;
		s[m].fract = h->fract;
	}
}

/* -f/-e/-F/-E/-n/-N and friends, on top of what a symbol inherited. */
static void
apply_specs(struct profile *p, struct pf_sym *c)
{
	const struct symspecs *ss = &p->priv->specs;

	if (!c->print_flag) {
		if (symspec_has(ss, SPEC_INCL_GRAPH, c->addr) || (symspec_empty(ss, SPEC_INCL_GRAPH) &&
		    !symspec_has(ss, SPEC_EXCL_GRAPH, c->addr)))
			c->print_flag = 1;
	} else if (!symspec_has(ss, SPEC_INCL_GRAPH, c->addr) &&
	    symspec_has(ss, SPEC_EXCL_GRAPH, c->addr)) {
		c->print_flag = 0;
	}
	if (c->fract == 0.0) {
		if (symspec_has(ss, SPEC_INCL_TIME, c->addr) || (symspec_empty(ss, SPEC_INCL_TIME) &&
		    !symspec_has(ss, SPEC_EXCL_TIME, c->addr)))
			c->fract = 1.0;
	} else if (!symspec_has(ss, SPEC_INCL_TIME, c->addr) &&
	    symspec_has(ss, SPEC_EXCL_TIME, c->addr)) {
		c->fract = 0.0;
	}
}

/* gprof's propagate_flags(), from the topological top (callers) down. */
static void
propagate_flags(struct profile *p, const uint32_t *top)
{
	uint32_t old_head = PF_NONE, i;

	for (i = p->nsyms; i-- > 0;) {
		struct pf_sym *c = &p->sym[top[i]];

		if (c->cyc_head != old_head) {
			old_head = c->cyc_head;
			inherit_flags(p, top[i]);
		}
		apply_specs(p, c);
		c->prop_self = c->time * c->fract;
		p->print_time += c->prop_self;
	}
}

/* gprof's cycle_time(): a cycle's self time is its members'. */
static void
cycle_time(struct profile *p)
{
	uint32_t k, m;

	for (k = 0; k < p->ncycles; k++) {
		struct pf_sym *h = &p->sym[p->nsyms + k];

		for (m = h->cyc_next; m != PF_NONE; m = p->sym[m].cyc_next)
			if (p->sym[m].fract != 0.0)
				h->time += p->sym[m].time;
		h->prop_self = h->fract * h->time;
	}
}

/* gprof's propagate_time(): PARENT's share of each callee's time, by call counts. */
static void
propagate_time(struct profile *p, uint32_t pid, struct diag *d)
{
	struct pf_sym *s = p->sym, *par = &s[pid], *c;
	uint32_t a;

	if (par->fract == 0.0)
		return;
	for (a = par->children; a != PF_NONE; a = p->arc[a].next_child) {
		struct pf_arc *arc = &p->arc[a];
		double share, prop_share, ratio;

		c = &s[arc->child];
		if (arc->count == 0 || arc->child == pid || c->fract == 0.0)
			continue;
		if (c->cyc_head != arc->child) {
			if (par->cycle == c->cycle)
				continue;
			c = &s[c->cyc_head];
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
		if (par->cyc_head != pid) {
			s[par->cyc_head].child_time += share;
			s[par->cyc_head].prop_child += prop_share;
		}
	}
}

/* Phase 1 for one symbol: recursive calls, and -c arcs. */
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
cmp_topo(const void *a, const void *b, void *ctx)
{
	const struct pf_sym *s = ctx;

	return s[*(const uint32_t *)a].top_order - s[*(const uint32_t *)b].top_order;
}

int
cg_assemble(struct profile *p, const unsigned char *text, struct diag *d)
{
	uint32_t *top, i;

	for (i = 0; i < p->nsyms; i++)
		if (prepare(p, i, text, d) != 0)
			return -1;
	if (number_all(p) != 0 || link_cycles(p) != 0)
		return diag_oom(d);
	top = mem_array(p->nsyms, sizeof *top);
	if (top == NULL)
		return diag_oom(d);
	for (i = 0; i < p->nsyms; i++)
		top[i] = i;
	if (msort_ids(top, p->nsyms, cmp_topo, p->sym) != 0) {
		free(top);
		return diag_oom(d);
	}
	propagate_flags(p, top);
	cycle_time(p);
	for (i = 0; i < p->nsyms; i++)
		propagate_time(p, top[i], d);
	free(top);
	return 0;
}
