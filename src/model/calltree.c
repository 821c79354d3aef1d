/* calltree: the call tree's rows, nodes made from the profile's arcs as they are opened. */
#include <stdlib.h>
#include <string.h>

#include "calltree.h"

#include "arcfacts.h"

/*
 * The rows are the nodes shown, in preorder: a node's open subtree
 * follows it, one level deeper.  Nothing is kept for a node not shown:
 * opening one makes its children, closing it drops them.
 *
 * Without stacks, a node stands for a function or a cycle as a whole, met
 * along an arc, and its children are made from the profile's arcs (what
 * is kept is the graph's facts, made once: model/arcfacts.h).  Its time is
 * its inclusive time (self and children, as gprof's call graph propagates
 * it) along its path: a root has all of it; a node under a parent has the
 * arc's time (gprof's child line, or bottom-up its parent line) scaled by
 * the share of the parent's whole time its path carries.  Top-down, that
 * share is split by calls (CALLTREE_SHARED) where its parent's is or its
 * arc has less than all of its calls, and its time is an estimate
 * (CALLTREE_ESTIMATED) where it is shared or its function's whole time
 * holds a share gprof split below it (arcfacts' exact).  Bottom-up, every
 * node's time is a part of the root's: an estimate where the root's
 * whole time is, its parent's is, or its arc has less than all of its
 * parent's calls.
 *
 * With stacks the view's tree of frames is made whole at calltree_make()
 * (core/flame.h) and a node's children are its node's there, with a self
 * row top-down: every number is samples counted, none estimated.
 */

struct vec {
	struct calltree_node *v;
	size_t n, cap;
};

struct calltree {
	const struct profile *p;
	const struct pf_measure *m;	/* stack trees, or NULL for gprof's arcs */
	struct arcfacts facts;	/* without stacks: the graph's, once */
	uint8_t *on;		/* per function and cycle: on the path of the node being opened */
	size_t *slot;		/* its node among the children being made, + 1, or 0 */
	struct pf_flame *stk;	/* with stacks: the view's tree of frames */
	/* The rows, and what they are for (calltree_make()): */
	struct vec rows;
	uint32_t root;		/* PF_NONE for the whole program */
	int inverted;		/* bottom-up */
	/* Scratch: */
	struct vec stack;	/* nodes to be rows, last first */
	uint32_t *path;		/* ids on the path, by depth */
	size_t npath, cappath;
	int merged;		/* kids() met two arcs to one child */
};

/* Room for N more nodes in V; 0, or -1 when out of memory. */
static int
reserve(struct vec *v, size_t n)
{
	size_t cap = v->cap > 0 ? v->cap : 64;
	struct calltree_node *nv;

	if (v->n + n <= v->cap)
		return 0;
	while (cap < v->n + n)
		cap *= 2;
	if ((nv = realloc(v->v, cap * sizeof *nv)) == NULL)
		return -1;
	v->v = nv;
	v->cap = cap;
	return 0;
}

/* The time along ARC (its callee's time, self and children, on behalf of its caller). */
static double
arc_time(const struct profile *p, uint32_t arc)
{
	return p->arc[arc].time + p->arc[arc].child_time;
}

/*
 * The share of its function's (or cycle's) whole time node X carries:
 * what its children's arc times are scaled by.  1 when it has it all
 * (or there is none to share).
 */
static double
share(const struct calltree *ct, const struct profile *p, const struct calltree_node *x)
{
	double w = arcfacts_whole(&ct->facts, p, x->id);

	return w > 0 && x->time < w ? x->time / w : 1;
}

/* Whether a function or cycle ID (not on its path) has children in VIEW. */
static int
has_kids(const struct calltree *ct, const struct profile *p, uint32_t id, int inv)
{
	if (id >= p->nsyms)	/* a cycle: its members, or its callers from outside */
		return !inv || ct->facts.called[id];
	if (inv)
		return p->sym[id].cycle != 0 || p->caller_start[id + 1] > p->caller_start[id];
	return ct->facts.down[id];
}

/*
 * Appends to V the child of X met along ARC, whose other end is END; or
 * adds the arc to the child V has for the same function or cycle (the
 * arcs from one function into two members of a cycle, or from one caller
 * into two members).
 */
static void
add_arc(struct calltree *ct, const struct profile *p, int inv, const struct calltree_node *x,
    uint32_t arc, uint32_t end, struct vec *v)
{
	const struct pf_arc *a = &p->arc[arc];
	/* Top-down, a cycle member called from outside stands for its cycle; a self call is recursion. */
	uint32_t id = inv || end == x->id ? end : arcfacts_as_node(p, end);
	double s = share(ct, p, x);
	struct calltree_node *k;

	if (ct->slot[id] != 0) {
		ct->merged = 1;
		k = &v->v[ct->slot[id] - 1];
		k->calls += a->count;
		k->time += k->flags & CALLTREE_RECURSIVE ? 0 : arc_time(p, arc) * s;
		return;
	}
	k = &v->v[v->n++];
	ct->slot[id] = v->n;
	k->id = id;
	k->arc = arc;
	k->ref = PF_NONE;
	k->depth = x->depth + 1;
	k->calls = a->count;
	k->time = 0;
	k->flags = CALLTREE_RECURSIVE;
	if (ct->on[id])
		return;
	k->time = arc_time(p, arc) * s;
	k->flags = has_kids(ct, p, id, inv) ? CALLTREE_KIDS : 0;	/* arc_kids() says what is estimated */
}

/* Appends to V the node of ID (a cycle's member, or a member's cycle) under X with TIME. */
static void
add_plain(struct calltree *ct, const struct profile *p, int inv, const struct calltree_node *x,
    uint32_t id, double time, struct vec *v)
{
	struct calltree_node *k = &v->v[v->n++];

	k->id = id;
	k->arc = k->ref = PF_NONE;
	k->depth = x->depth + 1;
	k->calls = p->sym[id].ncalls;
	k->time = 0;
	k->flags = CALLTREE_RECURSIVE;
	if (ct->on[id])
		return;
	k->time = time;
	k->flags = has_kids(ct, p, id, inv) ? CALLTREE_KIDS : 0;
}

/* Most time first; then the most calls, then by arc and id (a total order: the same everywhere). */
static int
cmp_kids(const void *a, const void *b)
{
	const struct calltree_node *x = a, *y = b;

	if (x->time != y->time)
		return x->time > y->time ? -1 : 1;
	if (x->calls != y->calls)
		return x->calls > y->calls ? -1 : 1;
	if (x->arc != y->arc)
		return x->arc < y->arc ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* Top-down: a cycle's members, or a function's callees. */
static int
callees(struct calltree *ct, const struct calltree_node *x, struct vec *v)
{
	const struct profile *p = ct->p;
	const struct arcfacts *af = &ct->facts;
	uint32_t c = x->id - p->nsyms, i;
	double s = share(ct, p, x);
	size_t k;

	if (x->id >= p->nsyms) {
		if (reserve(v, af->nmember[c]) != 0)
			return -1;
		for (k = 0; k < af->nmember[c]; k++)
			add_plain(ct, p, 0, x, af->member[c][k], arcfacts_whole(af, p, af->member[c][k]) * s, v);
		return 0;
	}
	if (reserve(v, p->callee_start[x->id + 1] - p->callee_start[x->id]) != 0)
		return -1;
	for (i = p->callee_start[x->id]; i < p->callee_start[x->id + 1]; i++) {
		uint32_t a = p->callee_arc[i], end = p->arc[a].child;

		if (!arcfacts_inside(p, x->id, end))
			add_arc(ct, p, 0, x, a, end, v);
	}
	return 0;
}

/*
 * Bottom-up: a cycle member's cycle (all of the member's time goes up
 * through it); a cycle's callers from outside it; a function's callers.
 */
static int
callers(struct calltree *ct, const struct calltree_node *x, struct vec *v)
{
	const struct profile *p = ct->p;
	const uint32_t *mem = &x->id;	/* a function's callers, or each member's of a cycle */
	size_t n = 1, k;
	uint32_t m, i;

	if (x->id < p->nsyms && p->sym[x->id].cycle != 0) {
		if (reserve(v, 1) != 0)
			return -1;
		add_plain(ct, p, 1, x, p->sym[x->id].cyc_head, x->time, v);
		return 0;
	}
	if (x->id >= p->nsyms)
		mem = profile_cycle_members(p, x->id, &n);
	for (k = 0; k < n; k++) {
		m = mem[k];
		if (reserve(v, p->caller_start[m + 1] - p->caller_start[m]) != 0)
			return -1;
		for (i = p->caller_start[m + 1]; i-- > p->caller_start[m];) {
			uint32_t a = p->caller_arc[i], end = p->arc[a].parent;

			if (x->id < p->nsyms || p->sym[end].cyc_head != x->id)
				add_arc(ct, p, 1, x, a, end, v);
		}
	}
	return 0;
}

/* Arc-tree: appends X's children to V; see kids(). */
static int
arc_kids(struct calltree *ct, const struct calltree_node *x, struct vec *v)
{
	const struct profile *p = ct->p;
	size_t from = v->n, j;
	int rc;

	ct->merged = 0;
	rc = ct->inverted ? callers(ct, x, v) : callees(ct, x, v);
	for (j = from; j < v->n; j++) {
		struct calltree_node *k = &v->v[j];
		int split = k->arc != PF_NONE && k->calls < p->sym[ct->inverted ? x->id : k->id].ncalls;

		ct->slot[k->id] = 0;
		if (k->flags & CALLTREE_RECURSIVE)
			continue;	/* no time */
		if (ct->inverted && ((x->flags & CALLTREE_ESTIMATED) || split))
			k->flags |= CALLTREE_ESTIMATED;
		if (!ct->inverted && ((x->flags & CALLTREE_SHARED) || split))
			k->flags |= CALLTREE_SHARED | CALLTREE_ESTIMATED;
		if (!ct->inverted && !ct->facts.exact[k->id])
			k->flags |= CALLTREE_ESTIMATED;
	}
	if (rc == 0 && (ct->merged || (ct->inverted && x->id >= p->nsyms)))
		qsort(v->v + from, v->n - from, sizeof *v->v, cmp_kids);
	return rc;
}

/* The arc from function A to function B, or PF_NONE (either no function, or no such call). */
static uint32_t
arc_between(const struct profile *p, uint32_t a, uint32_t b)
{
	uint32_t k;

	if (a >= p->nsyms || b >= p->nsyms || p->callee_start == NULL)
		return PF_NONE;
	for (k = p->callee_start[a]; k < p->callee_start[a + 1]; k++)
		if (p->arc[p->callee_arc[k]].child == b)
			return p->callee_arc[k];
	return PF_NONE;
}

/* A stack tree's node N (under frame PARENT, or PF_NONE) as a row at DEPTH, into V (which has room). */
static void
add_frame(struct calltree *ct, uint32_t n, uint32_t parent, uint32_t depth, struct vec *v)
{
	const struct pf_flame_node *f = &ct->stk->node[n];
	struct calltree_node *k = &v->v[v->n++];
	uint32_t from = ct->inverted ? f->frame : parent, to = ct->inverted ? parent : f->frame;

	k->id = f->frame;
	k->ref = n;
	k->depth = depth;
	k->arc = arc_between(ct->p, from, to);
	k->calls = k->arc != PF_NONE ? ct->p->arc[k->arc].count :
	    depth == 0 && f->frame < ct->p->nsyms ? ct->p->sym[f->frame].ncalls : 0;
	k->time = f->total;
	k->flags = f->child != PF_NONE ? CALLTREE_KIDS : 0;
}

/* Stack tree: X's node's children, and top-down a self row if it has its own samples beside them. */
static int
stack_kids(struct calltree *ct, const struct calltree_node *x, struct vec *v)
{
	const struct pf_flame_node *f = &ct->stk->node[x->ref];
	size_t n = 0, from = v->n;
	uint32_t c;

	for (c = f->child; c != PF_NONE; c = ct->stk->node[c].next)
		n++;
	if (reserve(v, n + 1) != 0)
		return -1;
	for (c = f->child; c != PF_NONE; c = ct->stk->node[c].next)
		add_frame(ct, c, x->id, x->depth + 1, v);
	if (!ct->inverted && f->self > 0 && n > 0) {
		struct calltree_node *k = &v->v[v->n++];

		memset(k, 0, sizeof *k);
		k->id = CALLTREE_SELF;
		k->arc = k->ref = PF_NONE;
		k->depth = x->depth + 1;
		k->time = f->self;
		qsort(v->v + from, v->n - from, sizeof *v->v, cmp_kids);	/* among them by time */
	}
	return 0;
}

/*
 * Appends X's children to V, most time first: in a stack tree, its
 * node's; else as gprof orders a function's callees, callers (reversed)
 * and a cycle's members, or sorted (arcs merged, a cycle's callers).  0,
 * or -1 when out of memory.
 */
static int
kids(struct calltree *ct, const struct calltree_node *x, struct vec *v)
{
	return ct->stk != NULL ? stack_kids(ct, x, v) : arc_kids(ct, x, v);
}

/*
 * Makes node X the path's entry at DEPTH, dropping the deeper ones; a
 * recursive node, which is already on it and has no children, only
 * drops them.  0, or -1 when out of memory.
 */
static int
path_to(struct calltree *ct, size_t depth, const struct calltree_node *x)
{
	uint32_t *np;

	while (ct->npath > depth)
		ct->on[ct->path[--ct->npath]] = 0;
	if ((x->flags & CALLTREE_RECURSIVE) || ct->stk != NULL)	/* a stack tree needs no path */
		return 0;
	if (ct->npath == ct->cappath) {
		size_t cap = ct->cappath > 0 ? 2 * ct->cappath : 64;

		if ((np = realloc(ct->path, cap * sizeof *np)) == NULL)
			return -1;
		ct->path = np;
		ct->cappath = cap;
	}
	ct->path[ct->npath++] = x->id;
	ct->on[x->id] = 1;
	return 0;
}

/* Marks the ancestors of row I on the path, root first, as path entries 0, 1, ...; 0, or -1. */
static int
mark_ancestors(struct calltree *ct, size_t i)
{
	const struct calltree_node *r = ct->rows.v;
	size_t j = i, d = r[i].depth, k = d;
	uint32_t *np;

	if (ct->stk != NULL)
		return 0;	/* a stack tree needs no path */
	if (d > ct->cappath) {
		if ((np = realloc(ct->path, (d + 64) * sizeof *np)) == NULL)
			return -1;
		ct->path = np;
		ct->cappath = d + 64;
	}
	while (k > 0 && j-- > 0) {
		if (r[j].depth < k) {
			k = r[j].depth;
			ct->path[k] = r[j].id;
			ct->on[r[j].id] = 1;
		}
	}
	ct->npath = d;
	return 0;
}

static void
unmark(struct calltree *ct)
{
	while (ct->npath > 0)
		ct->on[ct->path[--ct->npath]] = 0;
}

static void
reverse(struct calltree_node *v, size_t n)
{
	size_t i;

	for (i = 0; i < n / 2; i++) {
		struct calltree_node y = v[i];

		v[i] = v[n - 1 - i];
		v[n - 1 - i] = y;
	}
}

/*
 * Rows for the nodes START[0 .. N) (all as deep, their ancestors marked
 * as the path's first entries) and their descendants LEVELS deep, in
 * preorder, into OUT (emptied first): at most CAP rows; a node whose
 * children would pass CAP stays closed, and so does every later one
 * (*CAPPED set).  0, or -1 when out of memory.
 */
static int
grow(struct calltree *ct, const struct calltree_node *start, size_t n, size_t levels,
    size_t cap, struct vec *out, int *capped)
{
	struct vec *st = &ct->stack;
	size_t base = ct->npath, from;

	st->n = out->n = 0;
	if (reserve(st, n) != 0)
		return -1;
	memcpy(st->v, start, n * sizeof *start);
	reverse(st->v, st->n = n);
	while (st->n > 0) {
		struct calltree_node x = st->v[--st->n];

		if (path_to(ct, base + x.depth - start[0].depth, &x) != 0 || reserve(out, 1) != 0)
			return -1;
		x.flags &= ~CALLTREE_OPEN;
		from = st->n;
		if ((x.flags & CALLTREE_KIDS) && x.depth - start[0].depth < levels && !*capped) {
			if (kids(ct, &x, st) != 0)
				return -1;
			if (out->n + 1 + st->n > cap) {
				st->n = from;
				*capped = 1;
			} else {
				x.flags |= CALLTREE_OPEN;
			}
		}
		reverse(st->v + from, st->n - from);	/* the first child on top */
		out->v[out->n++] = x;
	}
	return 0;
}

/* The end of row I's subtree: the first row after it not deeper. */
static size_t
subtree_end(const struct calltree *ct, size_t i)
{
	size_t j;

	for (j = i + 1; j < ct->rows.n && ct->rows.v[j].depth > ct->rows.v[i].depth; j++)
		;
	return j;
}

/* Replaces rows [FROM, TO) with the N nodes NEW; 0, or -1. */
static int
splice(struct calltree *ct, size_t from, size_t to, const struct calltree_node *nw, size_t n)
{
	struct vec *r = &ct->rows;

	if (n > to - from && reserve(r, n - (to - from)) != 0)
		return -1;
	memmove(r->v + from + n, r->v + to, (r->n - to) * sizeof *r->v);
	if (n > 0)
		memcpy(r->v + from, nw, n * sizeof *nw);
	r->n = r->n - (to - from) + n;
	return 0;
}

int
calltree_open(struct calltree *ct, size_t i, size_t levels)
{
	struct vec out = { NULL, 0, 0 };
	size_t end = subtree_end(ct, i);
	int capped = 0, rc = -1;

	if (!(ct->rows.v[i].flags & CALLTREE_KIDS))
		return 0;
	if (mark_ancestors(ct, i) == 0 && grow(ct, &ct->rows.v[i], 1, levels,
	    CALLTREE_MAX - (ct->rows.n - (end - i)), &out, &capped) == 0 &&
	    splice(ct, i, end, out.v, out.n) == 0)
		rc = capped;
	unmark(ct);
	free(out.v);
	return rc;
}

void
calltree_close(struct calltree *ct, size_t i)
{
	splice(ct, i + 1, subtree_end(ct, i), NULL, 0);
	ct->rows.v[i].flags &= ~CALLTREE_OPEN;
}

size_t
calltree_parent(const struct calltree *ct, size_t i)
{
	size_t j;

	for (j = i; j-- > 0;)
		if (ct->rows.v[j].depth < ct->rows.v[i].depth)
			return j;
	return i;
}

/*
 * The ids and arcs of row I's path, from its root, into KEY (made, and
 * the caller's to free); its length, 0 when out of memory.
 */
static size_t
path_key(const struct calltree *ct, size_t i, struct calltree_node **key)
{
	size_t n = ct->rows.v[i].depth + 1, j = i;

	if ((*key = calloc(n, sizeof **key)) == NULL)
		return 0;
	(*key)[n - 1] = ct->rows.v[i];
	while (ct->rows.v[j].depth > 0) {
		j = calltree_parent(ct, j);
		(*key)[ct->rows.v[j].depth] = ct->rows.v[j];
	}
	return n;
}

/* The row of the node KEY[0 .. N) names (id and arc at each depth), or the deepest on its way. */
static size_t
find_key(const struct calltree *ct, const struct calltree_node *key, size_t n)
{
	size_t j, matched = 0, best = 0;

	for (j = 0; j < ct->rows.n && matched < n; j++) {
		const struct calltree_node *x = &ct->rows.v[j];

		if (x->depth < matched)
			matched = x->depth;
		if (x->depth == matched && x->id == key[matched].id && x->arc == key[matched].arc) {
			matched++;
			best = j;
		}
	}
	return best;
}

int
calltree_open_all(struct calltree *ct, size_t *sel)
{
	struct vec top = { NULL, 0, 0 }, out = { NULL, 0, 0 };
	struct calltree_node *key = NULL;
	size_t n, i;
	int capped = 0, rc = -1;

	if (*sel >= ct->rows.n)
		return 0;	/* no rows (a function on no stack), or no such row */
	n = path_key(ct, *sel, &key);
	for (i = 0; n > 0 && i < ct->rows.n; i++)
		if (ct->rows.v[i].depth == 0 && reserve(&top, 1) == 0)
			top.v[top.n++] = ct->rows.v[i];
	if (top.n > 0 && grow(ct, top.v, top.n, SIZE_MAX, CALLTREE_MAX, &out, &capped) == 0) {
		free(ct->rows.v);
		ct->rows = out;
		out.v = NULL;
		*sel = find_key(ct, key, n);
		rc = capped;
	}
	unmark(ct);
	free(out.v);
	free(top.v);
	free(key);
	return rc;
}

void
calltree_close_all(struct calltree *ct, size_t *sel)
{
	size_t i, n = 0, first = 0;

	for (i = 0; i < ct->rows.n; i++) {
		if (ct->rows.v[i].depth != 0)
			continue;
		if (i <= *sel)
			first = n;
		ct->rows.v[n] = ct->rows.v[i];
		ct->rows.v[n++].flags &= ~CALLTREE_OPEN;
	}
	ct->rows.n = n;
	*sel = first;
}

/* Most time first, then by id. */
static int
cmp_roots(const void *a, const void *b)
{
	const struct calltree_node *x = a, *y = b;

	if (x->time != y->time)
		return x->time > y->time ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/*
 * A function gprof's call graph lists, or one that calls others (without
 * time or calls it is not listed, as main in a profile of arcs only); a
 * cycle one of whose members is (gprof does not list a cycle nothing
 * outside calls).
 */
static int
listed(const struct calltree *ct, struct report *r, uint32_t id)
{
	const struct profile *p = ct->p;
	size_t k;

	if (id < p->nsyms)
		return report_cg_listed(r, id) || (ct->facts.down[id] && p->sym[id].print_flag &&
		    p->sym[id].fold == PF_NONE);
	for (k = 0; k < ct->facts.nmember[id - p->nsyms]; k++)
		if (listed(ct, r, ct->facts.member[id - p->nsyms][k]))
			return 1;
	return 0;
}

/* A root row for ID (a function or cycle) in VIEW; V has room. */
static void
add_root(struct calltree *ct, const struct profile *p, uint32_t id, struct vec *v)
{
	struct calltree_node *k = &v->v[v->n++];

	k->id = id;
	k->arc = k->ref = PF_NONE;
	k->depth = 0;
	k->calls = p->sym[id].ncalls;
	k->time = arcfacts_whole(&ct->facts, p, id);
	k->flags = (has_kids(ct, p, id, ct->inverted) ? CALLTREE_KIDS : 0) |
	    (ct->facts.exact[id] ? 0 : CALLTREE_ESTIMATED);
}

/* A stack tree's roots: node 0's children, most time first (the view's root, if it has one). */
static int
stack_roots(struct calltree *ct)
{
	uint32_t c, n = 0;

	for (c = ct->stk->node[0].child; c != PF_NONE; c = ct->stk->node[c].next)
		n++;
	if (reserve(&ct->rows, n) != 0)
		return -1;
	for (c = ct->stk->node[0].child; c != PF_NONE; c = ct->stk->node[c].next)
		add_frame(ct, c, PF_NONE, 0, &ct->rows);
	return 0;
}

/*
 * The roots: a stack tree's; else the functions no other function calls
 * and the cycles nothing outside calls (of those the call graph lists),
 * most time first; else the one function or cycle the view is for.  0,
 * or -1.
 */
static int
roots(struct calltree *ct, struct report *r)
{
	const struct profile *p = ct->p;
	uint32_t i, n = p->nsyms + p->ncycles;

	if (ct->stk != NULL)
		return stack_roots(ct);
	if (ct->root != PF_NONE) {
		if (reserve(&ct->rows, 1) != 0)
			return -1;
		add_root(ct, p, ct->root, &ct->rows);
		return 0;
	}
	for (i = 0; i < n; i++) {
		if ((i < p->nsyms && p->sym[i].cycle != 0) || ct->facts.called[i])
			continue;
		if (!listed(ct, r, i))
			continue;
		if (reserve(&ct->rows, 1) != 0)
			return -1;
		add_root(ct, p, i, &ct->rows);
	}
	if (ct->rows.n > 1)
		qsort(ct->rows.v, ct->rows.n, sizeof *ct->rows.v, cmp_roots);
	return 0;
}

struct calltree *
calltree_new(const struct profile *p, const struct pf_measure *m)
{
	struct calltree *ct = calloc(1, sizeof *ct);
	size_t n = (size_t)p->nsyms + p->ncycles + 1;

	if (ct == NULL)
		return NULL;
	ct->p = p;
	ct->m = m;
	ct->root = PF_NONE;
	ct->on = calloc(n, 1);
	ct->slot = calloc(n, sizeof *ct->slot);
	if (ct->on == NULL || ct->slot == NULL || (m == NULL && arcfacts_make(&ct->facts, p) != 0)) {
		calltree_free(ct);
		return NULL;
	}
	return ct;
}

void
calltree_free(struct calltree *ct)
{
	if (ct == NULL)
		return;
	arcfacts_release(&ct->facts);
	flame_free(ct->stk);
	free(ct->on);
	free(ct->slot);
	free(ct->rows.v);
	free(ct->stack.v);
	free(ct->path);
	free(ct);
}

/* With stacks: the view's tree of frames, made anew; 0, or -1 when out of memory. */
static int
stack_view(struct calltree *ct, int collapse)
{
	struct flame_view v = { ct->root, ct->inverted, collapse };
	struct diag quiet;
	int rc;

	flame_free(ct->stk);
	ct->stk = NULL;
	diag_init(&quiet);
	rc = flame_build_view(ct->m, &v, &ct->stk, &quiet);
	diag_release(&quiet);
	return rc;
}

int
calltree_make(struct calltree *ct, struct report *r, uint32_t root, int inverted, int collapse)
{
	ct->rows.n = 0;
	ct->root = root < ct->p->nsyms + (ct->m != NULL ? 0 : ct->p->ncycles) ? root : PF_NONE;
	ct->inverted = inverted;
	if ((ct->m != NULL && stack_view(ct, collapse) != 0) || roots(ct, r) != 0 ||
	    (ct->rows.n > 0 && calltree_open(ct, 0, 1) < 0)) {
		ct->rows.n = 0;
		return -1;
	}
	return 0;
}

size_t
calltree_nrows(const struct calltree *ct)
{
	return ct->rows.n;
}

const struct pf_measure *
calltree_measure(const struct calltree *ct)
{
	return ct->m;
}

const struct calltree_node *
calltree_row(const struct calltree *ct, size_t i)
{
	return &ct->rows.v[i];
}
