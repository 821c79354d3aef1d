/* cg: depth-first numbering and cycles, then time propagation (prop.c), with gprof's exact results in linear time. */
#include "cg.h"

#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "arcs.h"
#include "callscan.h"
#include "core.h"
#include "order.h"
#include "prop.h"
#include "util/job.h"

/*
 * gprof's cg_assemble() in five phases:
 *   1. subtract recursive calls, then with -c add arcs found in the code;
 *   2. number the symbols in depth-first post-order, gluing ("glomming")
 *      the members of each strongly connected component into one cycle;
 *   3. number the cycles and count the calls into and within them;
 *   4. propagate print flags and time fractions from callers down, in
 *      topological order;
 *   5. propagate time from callees up (the average-time assumption).
 * Phases 4 and 5 are prop.c's, on a layout of the graph it keeps for
 * profile_narrow() when pf_opts.narrowable asks.
 *
 * gprof walks linked lists of arcs, newest first.  Here the arcs are
 * grouped once by caller and by callee in creation order (the profile's
 * caller_arc and callee_arc, later sorted for printing); walking a group
 * backwards visits the arcs in gprof's list order.  The phases work on a
 * compact copy of each symbol (struct cgw's arrays) and write the results back at
 * the end: on large graphs the random accesses of these walks dominate,
 * and 128-byte symbols would cost two cache lines each.
 */

#define DFN_NAN 0
#define DFN_BUSY (-1)


/*
 * What the depth-first search reads of a node, together: one miss brings
 * its number and its first two callees, so the next step down and the
 * one across can be asked for at once (a walk at random, two dependent
 * misses a step otherwise).  Where its callees start is the node
 * before's END, in the same or the next cache line.
 */
struct dnode {
	int order;		/* top_order: DFN_NAN, DFN_BUSY or its number */
	uint32_t end;		/* its callees: kid[the node before's END..END), visited from the end */
	uint32_t last, second;	/* kid[end - 1] and kid[end - 2], the first two visited (if any) */
};

/* The analysis' working state; every array has one entry per node. */
struct cgw {
	struct profile *p;
	uint32_t cap;		/* nodes room: symbols and cycle headers */
	/*
	 * What the numbering needs of each node (nsyms symbols, then the
	 * cycle headers), one array a field but for the search's (DN): the
	 * cycles' calls read cycle alone.
	 */
	struct dnode *dn;
	int *cycle;
	uint32_t *head;		/* cycle header (or self) */
	uint32_t *kid;		/* the callee of each callee_arc slot */
	uint32_t *next;		/* cycle member lists (gprof's cyc.next) */
	/* depth-first search */
	uint32_t *stack;	/* 1-based; stack[depth] is being visited */
	uint32_t *cursor;	/* per stack entry: next callee slot, counting down */
	uint32_t *low;		/* per stack entry: its first callee slot */
	uint32_t *pos;		/* per node: its stack index, 0 if off the stack */
	uint32_t *uf;		/* per node: union-find parent (see find_head) */
	uint32_t *tail;		/* per cycle head: last member of its list */
	uint32_t *roots;	/* stack indices whose entries are still cycle heads */
	uint32_t depth, nroots;
	int counter;
	uint32_t visits;	/* nodes the search reached */
	int spare_cpu;		/* cg_cycles()' */
	struct scout *scout;	/* or NULL */
};

/*
 * The scout: the search's path walked on a helper thread ahead of it.
 * On a graph larger than the cache each step of the search waits for a
 * miss.  Its path depends only on which nodes it reached before
 * (pre_visit()), so the scout follows it exactly, with bits of its own,
 * reading only what the search does not write (each node's END, LAST and
 * SECOND; KID), and asks for each node it passes: the search then finds
 * them cached.  It keeps at most SCOUT_LEAD nodes ahead (what it fetched
 * must still be there when the search comes), and stops when the search
 * is done.  Nothing the search computes depends on it.
 */
#ifndef TGPROF_SCOUT_MIN	/* nodes: fewer fit the cache (at 100,000 the scout gains nothing); the TSan build's is less */
#define TGPROF_SCOUT_MIN 200000
#endif
#define SCOUT_LEAD 16384
#define SCOUT_EVERY 64		/* reached nodes between the search's reports */

struct scout {
	const struct cgw *w;
	uint64_t *seen;			/* the nodes it reached, a bit each */
	uint32_t *stack, *cursor;	/* as the search's */
	_Atomic uint32_t searched;	/* the search's visits, as of its last report */
	atomic_int done;
	struct job job;
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
		return;		/* a call to itself, or CHILD's cycle is finished */
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
	struct dnode *n = &w->dn[id];
	uint32_t begin = id > 0 ? w->dn[id - 1].end : 0, deg = n->end - begin;

	if (deg > 0)
		__builtin_prefetch(&w->dn[n->last]);	/* the next step down */
	if (deg > 1)
		__builtin_prefetch(&w->dn[n->second]);	/* and across */
	if (deg > 2)
		__builtin_prefetch(&w->kid[n->end - 3]);
	w->depth++;
	w->stack[w->depth] = id;
	w->cursor[w->depth] = n->end;
	w->low[w->depth] = begin;
	w->pos[id] = w->depth;
	w->roots[w->nroots++] = w->depth;
	n->order = DFN_BUSY;
	if (w->scout != NULL && ++w->visits % SCOUT_EVERY == 0)
		atomic_store_explicit(&w->scout->searched, w->visits, memory_order_relaxed);
}

/*
 * A finished head takes the next number; its members keep DFN_BUSY until
 * number_all() copies the head's number to them in one sweep (not a walk
 * of the member list, all over memory).  A member met again meanwhile is
 * harmless: find_cycle() finds it and its head off the stack.
 */
static void
post_visit(struct cgw *w, uint32_t id)
{
	if (find_head(w, id) == id)
		w->dn[id].order = ++w->counter;
	if (w->nroots > 0 && w->roots[w->nroots - 1] == w->depth)
		w->nroots--;
	w->pos[id] = 0;
	w->depth--;
}

/*
 * gprof's recursive cg_dfn(ROOT), with an explicit stack.  Taking a
 * callee, the one after it is asked for (its number is read when the
 * callee's subtree is done); the first two were on the way down.
 */
static void
dfn_from(struct cgw *w, uint32_t root)
{
	pre_visit(w, root);
	while (w->depth > 0) {
		const struct dnode *n = &w->dn[w->stack[w->depth]];
		uint32_t k = w->cursor[w->depth], low = w->low[w->depth], c;

		if (k == low) {
			post_visit(w, w->stack[w->depth]);
			continue;
		}
		c = k == n->end ? n->last : k == n->end - 1 ? n->second : w->kid[k - 1];
		w->cursor[w->depth] = --k;
		if (k > low && k < n->end - 1)	/* (the second was asked for on the way down) */
			__builtin_prefetch(&w->dn[w->kid[k - 1]]);
		if (w->dn[c].order == DFN_NAN)
			pre_visit(w, c);
		else if (w->dn[c].order == DFN_BUSY)
			find_cycle(w, c);
	}
}

/* Whether the scout, having reached REACHED nodes, is to stop: the search done, or, while too far ahead, waited for. */
static int
scout_wait(struct scout *s, uint32_t reached)
{
	while (!atomic_load_explicit(&s->done, memory_order_relaxed)) {
		if (reached <= atomic_load_explicit(&s->searched, memory_order_relaxed) + SCOUT_LEAD)
			return 0;
		sched_yield();
	}
	return 1;
}

/* Node C reached: where the scout goes next from it, asked for as pre_visit() asks. */
static void
scout_ask(const struct cgw *w, uint32_t c)
{
	const struct dnode *n = &w->dn[c];

	mem_ask(&w->dn[n->last]);
	mem_ask(&w->dn[n->second]);
	if (n->end > 2)
		mem_ask(&w->kid[n->end - 3]);
}

/* dfn_from()'s path from ROOT, asked for; REACHED counts the nodes.  0, or 1 to stop. */
static int
scout_from(struct scout *s, uint32_t root, uint32_t *reached)
{
	const struct cgw *w = s->w;
	uint32_t depth = 1, steps = 0;

	s->stack[1] = root;
	s->cursor[1] = w->dn[root].end;
	while (depth > 0) {
		uint32_t x = s->stack[depth], k = s->cursor[depth], c;

		if (k == (x > 0 ? w->dn[x - 1].end : 0)) {
			depth--;
			continue;
		}
		c = w->kid[k - 1];
		s->cursor[depth] = k - 1;
		if (s->seen[c / 64] >> (c % 64) & 1) {
			mem_ask(&w->dn[c]);	/* the search reads its number */
			if (++steps % 1024 == 0 && atomic_load_explicit(&s->done, memory_order_relaxed))
				return 1;
			continue;
		}
		s->seen[c / 64] |= (uint64_t)1 << (c % 64);
		s->stack[++depth] = c;
		s->cursor[depth] = w->dn[c].end;
		scout_ask(w, c);
		if (++*reached % SCOUT_EVERY == 0 && scout_wait(s, *reached))
			return 1;
	}
	return 0;
}

/* The scout's walk, its memory its own (faulted in on its thread, not the search's). */
static int
scout_run(void *arg)
{
	struct scout *s = arg;
	uint32_t n = s->w->p->nsyms, root, reached = 0;

	s->seen = mem_calloc((size_t)n / 64 + 1, sizeof *s->seen);
	s->stack = mem_array((size_t)n + 1, sizeof *s->stack);
	s->cursor = mem_array((size_t)n + 1, sizeof *s->cursor);
	for (root = 0; s->seen && s->stack && s->cursor && root < n; root++) {
		if (s->seen[root / 64] >> (root % 64) & 1)
			continue;
		s->seen[root / 64] |= (uint64_t)1 << (root % 64);
		if ((++reached % SCOUT_EVERY == 0 && scout_wait(s, reached)) || scout_from(s, root, &reached) != 0)
			break;
	}
	free(s->seen);
	free(s->stack);
	free(s->cursor);
	return 0;
}

/*
 * The scout sent, where the graph is large and a processor free (else it
 * takes time from work the load waits for: measured) and a helper thread
 * can be had; W->scout, or NULL.
 */
static void
scout_start(struct cgw *w)
{
	struct scout *s;

	if (!w->spare_cpu || w->p->nsyms < TGPROF_SCOUT_MIN || (s = calloc(1, sizeof *s)) == NULL)
		return;
	s->w = w;
	atomic_init(&s->searched, 0);
	atomic_init(&s->done, 0);
	if (job_try_start(&s->job, scout_run, s) == 0)
		w->scout = s;
	else
		free(s);
}

/* The search done: the scout called back (wherever it is) and freed. */
static void
scout_stop(struct cgw *w)
{
	if (w->scout == NULL)
		return;
	atomic_store_explicit(&w->scout->done, 1, memory_order_relaxed);
	job_join(&w->scout->job);
	free(w->scout);
	w->scout = NULL;
}

static void
free_dfn(struct cgw *w)
{
	free(w->stack);
	free(w->cursor);
	free(w->low);
	free(w->pos);
	free(w->uf);
	free(w->tail);
	free(w->roots);
	w->stack = w->cursor = w->low = w->pos = w->uf = w->tail = w->roots = NULL;
}

static int
number_all(struct cgw *w)
{
	uint32_t n = w->p->nsyms, i;

	w->stack = mem_array((size_t)n + 1, sizeof *w->stack);
	w->cursor = mem_array((size_t)n + 1, sizeof *w->cursor);
	w->low = mem_array((size_t)n + 1, sizeof *w->low);
	w->pos = mem_calloc(n, sizeof *w->pos);
	w->uf = mem_array(n, sizeof *w->uf);
	w->tail = mem_array(n, sizeof *w->tail);
	w->roots = mem_array((size_t)n + 1, sizeof *w->roots);
	if (!w->stack || !w->cursor || !w->low || !w->pos || !w->uf || !w->tail || !w->roots)
		return -1;
	for (i = 0; i < n; i++)
		w->uf[i] = w->tail[i] = i;
	scout_start(w);
	for (i = 0; i < n; i++)
		if (w->dn[i].order == DFN_NAN)
			dfn_from(w, i);
	scout_stop(w);
	for (i = 0; i < n; i++) {
		w->head[i] = find_head(w, i);
		w->dn[i].order = w->dn[w->head[i]].order;
	}
	free_dfn(w);
	return 0;
}

/* ---- phase 3: cycles (gprof's cycle_link) ---- */

/*
 * Calls into each cycle from outside and between its members, once every
 * cycle is numbered: one sweep of the arcs in creation order (the sums
 * are of integers, so any order gives gprof's), not a walk of each
 * member's callers, whose arcs are all over memory.
 */
static void
count_cycle_calls(struct cgw *w)
{
	struct profile *p = w->p;
	uint32_t a;

	for (a = 0; a < p->narcs; a++) {
		const struct pf_arc *arc = &p->arc[a];
		int k = w->cycle[arc->child];
		struct pf_sym *h;

		if (k == 0 || arc->parent == arc->child)
			continue;
		h = &p->sym[p->nsyms + (uint32_t)k - 1];
		if (w->cycle[arc->parent] == k)
			h->self_calls += arc->count;
		else
			h->ncalls += arc->count;
	}
}

/*
 * Every member of a cycle gets its header and number: one sweep in
 * address order, not a walk of each member list, all over memory.  On
 * entry a DFS head H that starts a cycle has head[H] set to the header
 * (at or above nsyms); any other member M has head[M] its DFS head.
 */
static void
link_members(struct cgw *w)
{
	uint32_t n = w->p->nsyms, i, h;

	for (i = 0; i < n; i++) {
		h = w->head[i];
		if (h >= n)
			w->cycle[i] = w->cycle[h];
		else if (h != i) {
			w->head[i] = w->head[h];
			w->cycle[i] = w->cycle[w->head[i]];
		}
	}
}

/* Cycle numbers follow the address order of their DFS heads. */
static int
link_cycles(struct cgw *w)
{
	struct profile *p = w->p;
	uint32_t i, n = 0, hid;

	for (i = 0; i < p->nsyms; i++)
		n += w->head[i] == i && w->next[i] != PF_NONE;
	/* syms.c reserved room for the headers: a cycle has at least two members. */
	if ((size_t)p->nsyms + n > w->cap)
		return -1;
	for (i = 0; i < p->nsyms; i++) {
		struct pf_sym *h;

		if (w->head[i] != i || w->next[i] == PF_NONE)
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
		w->dn[hid].order = 0;
		w->cycle[hid] = h->cycle;
		w->head[hid] = hid;
		w->head[i] = hid;	/* above nsyms: marks I a cycle's first member */
	}
	link_members(w);
	count_cycle_calls(w);
	return 0;
}

/* ---- phase 1, setup and results ---- */

/*
 * Recursive calls: a tallied arc from a symbol to itself (one at most per
 * symbol).  One sweep of the arcs, before -c adds any: gprof looks each
 * symbol's up before scanning its code, and a scan adds arcs of count 0.
 */
void
cg_recursion(struct profile *p)
{
	uint32_t a;

	for (a = 0; a < p->narcs; a++) {
		const struct pf_arc *arc = &p->arc[a];

		if (arc->parent == arc->child) {
			p->sym[arc->child].ncalls -= arc->count;
			p->sym[arc->child].self_calls = arc->count;
		}
	}
}

static int
setup(struct cgw *w, struct profile *p)
{
	uint32_t cap = (uint32_t)p->priv->symcap, i;

	w->p = p;
	w->cap = cap;
	/* Room for cycle headers, touched only as they are added. */
	w->dn = malloc((size_t)cap * sizeof *w->dn);
	w->cycle = malloc((size_t)cap * sizeof *w->cycle);
	w->head = malloc((size_t)cap * sizeof *w->head);
	w->next = malloc((size_t)cap * sizeof *w->next);
	w->kid = mem_array(p->narcs, sizeof *w->kid);	/* the callee of each callee_arc slot */
	if (!w->dn || !w->cycle || !w->head || !w->next || !w->kid)
		return -1;
	mem_populate(w->dn, (size_t)p->nsyms * sizeof *w->dn);
	mem_populate(w->cycle, (size_t)p->nsyms * sizeof *w->cycle);
	mem_populate(w->head, (size_t)p->nsyms * sizeof *w->head);
	mem_populate(w->next, (size_t)p->nsyms * sizeof *w->next);
	if (order_group_kids(p, w->kid) != 0)
		return -1;
	for (i = 0; i < p->nsyms; i++) {
		uint32_t b = p->callee_start[i], e = p->callee_start[i + 1];

		w->dn[i].order = w->cycle[i] = 0;
		w->dn[i].end = e;
		w->dn[i].last = e - b > 0 ? w->kid[e - 1] : 0;
		w->dn[i].second = e - b > 1 ? w->kid[e - 2] : 0;
		w->head[i] = i;
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

		s->top_order = w->dn[i].order;
		s->cycle = w->cycle[i];
		s->cyc_head = w->head[i];
		s->cyc_next = w->next[i];
	}
}

static void
release(struct cgw *w)
{
	free(w->dn);
	free(w->cycle);
	free(w->head);
	free(w->next);
	free(w->kid);
	free_dfn(w);
}

/* The cycles' member lists, from G's (profile_cycle_members()); 0 or -1. */
static int
keep_members(struct profile *p, const struct prop_graph *g)
{
	struct pf_private *pv = p->priv;
	uint32_t n = g->mem_start[p->ncycles], k;

	pv->cyc_member = mem_array((size_t)n + 1, sizeof *pv->cyc_member);
	pv->cyc_member_start = mem_array((size_t)p->ncycles + 1, sizeof *pv->cyc_member_start);
	if (pv->cyc_member == NULL || pv->cyc_member_start == NULL)
		return -1;
	memcpy(pv->cyc_member_start, g->mem_start, ((size_t)p->ncycles + 1) * sizeof *g->mem_start);
	for (k = 0; k < n; k++)
		pv->cyc_member[k] = g->id[g->mem[k]];
	return 0;
}

/* Phases 4 and 5: prop.c's graph, kept when profile_narrow() is to use it. */
static int
propagate(struct profile *p, struct diag *d)
{
	struct prop_graph g;
	double *slot_time;
	int rc;

	if (prop_build(&g, p) != 0)
		return diag_oom(d);
	if (keep_members(p, &g) != 0) {
		prop_release(&g);
		return diag_oom(d);
	}
	if ((slot_time = mem_array(2 * (size_t)g.nout + 1, sizeof *slot_time)) == NULL) {
		prop_release(&g);
		return diag_oom(d);
	}
	rc = prop_run(&g, p->sym, p, &p->priv->specs, slot_time, NULL, d);
	if (rc == 0)
		prop_arcs(&g, slot_time, p->arc, p->arc, p->narcs);
	free(slot_time);
	if (rc == 0 && p->priv->opts != NULL && p->priv->opts->narrowable)
		p->priv->graph = g;
	else
		prop_release(&g);
	return rc;
}

int
cg_cycles(struct profile *p, const unsigned char *text, int spare_cpu, struct diag *d)
{
	struct cgw w;
	uint32_t i;
	int rc;

	for (i = 0; text != NULL && i < p->nsyms; i++)
		if (callscan_symbol(p, i, text, d) != 0)
			return -1;
	/* No arc is added after this: the (parent, child) index is done. */
	arcs_release_index(p);
	memset(&w, 0, sizeof w);
	w.spare_cpu = spare_cpu;
	rc = setup(&w, p) != 0 || number_all(&w) != 0 || link_cycles(&w) != 0;
	if (rc == 0)
		write_back(&w);
	release(&w);
	return rc != 0 ? diag_oom(d) : 0;
}

int
cg_propagate(struct profile *p, struct diag *d)
{
	return propagate(p, d);
}

int
cg_assemble(struct profile *p, const unsigned char *text, struct diag *d)
{
	return cg_cycles(p, text, 0, d) != 0 || cg_propagate(p, d) != 0 ? -1 : 0;
}
