/* calltree: the call tree's rows, nodes made from the profile's arcs as they are opened. */
#include <stdlib.h>
#include <string.h>

#include "calltree.h"

/*
 * The rows are the nodes shown, in preorder: a node's open subtree
 * follows it, one level deeper.  Nothing is kept for a node not shown:
 * opening one makes its children from the profile's arcs, closing it
 * drops them.  (What is kept is the graph's, made once: calltree_new().)
 *
 * A node stands for a function or a cycle as a whole (a cycle's id), met
 * along an arc.  Its time is its inclusive time (self and children, as
 * gprof's call graph propagates it) along its path: a root has all of
 * it; a node under a parent has the arc's time (gprof's child line, or
 * bottom-up its parent line) scaled by the share of the parent's whole
 * time its path carries.  The time is an estimate (CALLTREE_ESTIMATED)
 * where gprof or the tree split a time by calls on the way: its parent's
 * is one, or its arc has less than all of the calls (top-down, into it;
 * bottom-up, into its parent).
 *
 * With call stacks (a pf_measure) a function's whole time is the samples
 * with it on the stack and an arc's the samples in which its caller
 * called its callee: measured, not split by calls.  A node's time is
 * then exact while every node above it has all of its function's time
 * (a function called along one path); below one that has a share, it is
 * the arc's scaled by that share, an estimate.
 */

struct vec {
	struct calltree_node *v;
	size_t n, cap;
};

struct calltree {
	const struct profile *p;
	const struct pf_measure *m;	/* measured times, or NULL for gprof's */
	/* The graph's facts, per function and cycle: */
	uint8_t *on;		/* on the path of the node being opened */
	size_t *slot;		/* its node among the children being made, + 1, or 0 */
	uint8_t *down;		/* has callees outside its cycle (a cycle: has members) */
	uint8_t *called;	/* called by another function (a cycle: from outside it) */
	/* Per cycle: */
	uint32_t **member;	/* its members in gprof's order */
	size_t *nmember;
	double *cycle_whole;	/* its members' whole times summed (whole_time()) */
	uint32_t ncycles;	/* the profile's (it may be gone when the tree is freed) */
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

/*
 * The whole time of a function: its primary line's self and children in
 * gprof's call graph; of a cycle, its members' (its own line's, but for a
 * cycle nothing outside calls, whose self time gprof leaves out).
 */
static double
whole_time(const struct calltree *ct, const struct profile *p, uint32_t id)
{
	if (ct->m != NULL)
		return ct->m->incl[id];
	if (id >= p->nsyms)
		return ct->cycle_whole[id - p->nsyms];
	return p->sym[id].prop_self + p->sym[id].prop_child;
}

/* The time along ARC (its callee's time, self and children, on behalf of its caller). */
static double
arc_time(const struct calltree *ct, const struct profile *p, uint32_t arc)
{
	if (ct->m != NULL)
		return ct->m->arc_incl[arc];
	return p->arc[arc].time + p->arc[arc].child_time;
}

/* The function stands for its cycle (an arc's end in a cycle is the cycle as a whole). */
static uint32_t
as_node(const struct profile *p, uint32_t id)
{
	return id < p->nsyms && p->sym[id].cycle != 0 ? p->sym[id].cyc_head : id;
}

/* An arc between two members of one cycle, which the cycle's node stands for (not a self call). */
static int
inside(const struct profile *p, uint32_t from, uint32_t to)
{
	return from != to && p->sym[from].cycle != 0 && p->sym[from].cyc_head == p->sym[to].cyc_head;
}

/*
 * The share of its function's (or cycle's) whole time node X carries:
 * what its children's arc times are scaled by.  1 when it has it all
 * (or there is none to share).
 */
static double
share(const struct calltree *ct, const struct profile *p, const struct calltree_node *x)
{
	double w = whole_time(ct, p, x->id);

	return w > 0 && x->time < w ? x->time / w : 1;
}

/* Whether a function or cycle ID (not on its path) has children in VIEW. */
static int
has_kids(const struct calltree *ct, const struct profile *p, uint32_t id, int inv)
{
	if (id >= p->nsyms)	/* a cycle: its members, or its callers from outside */
		return !inv || ct->called[id];
	if (inv)
		return p->sym[id].cycle != 0 || p->caller_start[id + 1] > p->caller_start[id];
	return ct->down[id];
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
	uint32_t id = inv || end == x->id ? end : as_node(p, end);
	double s = share(ct, p, x);
	struct calltree_node *k;

	if (ct->slot[id] != 0) {
		ct->merged = 1;
		k = &v->v[ct->slot[id] - 1];
		k->calls += a->count;
		k->time += k->flags & CALLTREE_RECURSIVE ? 0 : arc_time(ct, p, arc) * s;
		return;
	}
	k = &v->v[v->n++];
	ct->slot[id] = v->n;
	k->id = id;
	k->arc = arc;
	k->depth = x->depth + 1;
	k->calls = a->count;
	k->time = 0;
	k->flags = CALLTREE_RECURSIVE;
	if (ct->on[id])
		return;
	k->time = arc_time(ct, p, arc) * s;
	/* Estimated as its parent or its share; kids() adds a split of calls here. */
	k->flags = (x->flags & CALLTREE_ESTIMATED) | (ct->m != NULL && s < 1 ? CALLTREE_ESTIMATED : 0) |
	    (has_kids(ct, p, id, inv) ? CALLTREE_KIDS : 0);
}

/* Appends to V the node of ID (a cycle's member, or a member's cycle) under X with TIME, EST. */
static void
add_plain(struct calltree *ct, const struct profile *p, int inv, const struct calltree_node *x,
    uint32_t id, double time, int est, struct vec *v)
{
	struct calltree_node *k = &v->v[v->n++];

	k->id = id;
	k->arc = PF_NONE;
	k->depth = x->depth + 1;
	k->calls = p->sym[id].ncalls;
	k->time = 0;
	k->flags = CALLTREE_RECURSIVE;
	if (ct->on[id])
		return;
	k->time = time;
	k->flags = (est ? CALLTREE_ESTIMATED : 0) | (has_kids(ct, p, id, inv) ? CALLTREE_KIDS : 0);
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
	uint32_t c = x->id - p->nsyms, i;
	double s = share(ct, p, x);
	int est = (x->flags & CALLTREE_ESTIMATED) != 0 || (ct->m != NULL && s < 1);
	size_t k;

	if (x->id >= p->nsyms) {
		if (reserve(v, ct->nmember[c]) != 0)
			return -1;
		for (k = 0; k < ct->nmember[c]; k++)
			add_plain(ct, p, 0, x, ct->member[c][k],
			    whole_time(ct, p, ct->member[c][k]) * s, est, v);
		return 0;
	}
	if (reserve(v, p->callee_start[x->id + 1] - p->callee_start[x->id]) != 0)
		return -1;
	for (i = p->callee_start[x->id]; i < p->callee_start[x->id + 1]; i++) {
		uint32_t a = p->callee_arc[i], end = p->arc[a].child;

		if (!inside(p, x->id, end))
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
	uint32_t m, i;

	if (x->id < p->nsyms && p->sym[x->id].cycle != 0) {
		if (reserve(v, 1) != 0)
			return -1;
		add_plain(ct, p, 1, x, p->sym[x->id].cyc_head, x->time,
		    (x->flags & CALLTREE_ESTIMATED) != 0, v);
		return 0;
	}
	for (m = x->id < p->nsyms ? x->id : p->sym[x->id].cyc_next; m != PF_NONE;
	    m = x->id < p->nsyms ? PF_NONE : p->sym[m].cyc_next) {
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

/*
 * Appends X's children to V, most time first: as gprof orders a
 * function's callees, callers (reversed) and a cycle's members, else
 * sorted (measured times, arcs merged, a cycle's callers).  0, or -1
 * when out of memory.
 */
static int
kids(struct calltree *ct, const struct calltree_node *x, struct vec *v)
{
	const struct profile *p = ct->p;
	size_t from = v->n, j;
	int rc;

	ct->merged = 0;
	rc = ct->inverted ? callers(ct, x, v) : callees(ct, x, v);
	for (j = from; j < v->n; j++) {
		struct calltree_node *k = &v->v[j];

		ct->slot[k->id] = 0;
		if (ct->m == NULL && k->arc != PF_NONE && !(k->flags & CALLTREE_RECURSIVE) && k->calls <
		    p->sym[ct->inverted ? x->id : k->id].ncalls)
			k->flags |= CALLTREE_ESTIMATED;	/* a time split by calls */
	}
	if (rc == 0 && (ct->m != NULL || ct->merged || (ct->inverted && x->id >= p->nsyms)))
		qsort(v->v + from, v->n - from, sizeof *v->v, cmp_kids);
	return rc;
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
	if (x->flags & CALLTREE_RECURSIVE)
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
	size_t n = path_key(ct, *sel, &key), i;
	int capped = 0, rc = -1;

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

/* Has any function outside cycle K (0..) an arc into it? */
static int
cycle_called(const struct profile *p, uint32_t k)
{
	uint32_t m, i;

	for (m = p->sym[p->nsyms + k].cyc_next; m != PF_NONE; m = p->sym[m].cyc_next)
		for (i = p->caller_start[m]; i < p->caller_start[m + 1]; i++)
			if (!inside(p, m, p->arc[p->caller_arc[i]].parent) &&
			    p->arc[p->caller_arc[i]].parent != m)
				return 1;
	return 0;
}

/* Has any other function an arc into function I? */
static int
fn_called(const struct profile *p, uint32_t i)
{
	uint32_t k;

	for (k = p->caller_start[i]; k < p->caller_start[i + 1]; k++)
		if (p->arc[p->caller_arc[k]].parent != i)
			return 1;
	return 0;
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
		return report_cg_listed(r, id) || (ct->down[id] && p->sym[id].print_flag &&
		    p->sym[id].fold == PF_NONE);
	for (k = 0; k < ct->nmember[id - p->nsyms]; k++)
		if (listed(ct, r, ct->member[id - p->nsyms][k]))
			return 1;
	return 0;
}

/* A root row for ID (a function or cycle) in VIEW; V has room. */
static void
add_root(struct calltree *ct, const struct profile *p, uint32_t id, struct vec *v)
{
	struct calltree_node *k = &v->v[v->n++];

	k->id = id;
	k->arc = PF_NONE;
	k->depth = 0;
	k->calls = p->sym[id].ncalls;
	k->time = whole_time(ct, p, id);
	k->flags = has_kids(ct, p, id, ct->inverted) ? CALLTREE_KIDS : 0;
}

/*
 * The roots: the functions no other function calls and the cycles
 * nothing outside calls (of those the call graph lists), most time first;
 * else the one function or cycle the view is for.  0, or -1.
 */
static int
roots(struct calltree *ct, struct report *r)
{
	const struct profile *p = ct->p;
	uint32_t i, n = p->nsyms + p->ncycles;

	if (ct->root != PF_NONE) {
		if (reserve(&ct->rows, 1) != 0)
			return -1;
		add_root(ct, p, ct->root, &ct->rows);
		return 0;
	}
	for (i = 0; i < n; i++) {
		if ((i < p->nsyms && p->sym[i].cycle != 0) || ct->called[i])
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

/* Has function I callees outside its cycle (it may call itself)? */
static int
calls_out(const struct profile *p, uint32_t i)
{
	uint32_t k;

	if (p->sym[i].cycle == 0)
		return p->callee_start[i + 1] > p->callee_start[i];
	for (k = p->callee_start[i]; k < p->callee_start[i + 1]; k++)
		if (!inside(p, i, p->arc[p->callee_arc[k]].child))
			return 1;
	return 0;
}

struct keyed {
	double time;
	uint64_t calls;
	size_t pos;
	uint32_t id;
};

/* gprof's order of a cycle's members: most time, then most calls first; ties as they come. */
static int
cmp_members(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;

	if (x->time != y->time)
		return x->time > y->time ? -1 : 1;
	if (x->calls != y->calls)
		return x->calls > y->calls ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/*
 * Cycle K's members in gprof's order (report.h's report_cg_members(),
 * sorted here on keys read once: a cycle may have most of the program),
 * and their whole time; 0, or -1 when out of memory.
 */
static int
members(struct calltree *ct, uint32_t k)
{
	const struct profile *p = ct->p;
	struct keyed *v;
	size_t n = 0, i;
	uint32_t m;

	for (m = p->sym[p->nsyms + k].cyc_next; m != PF_NONE; m = p->sym[m].cyc_next)
		n++;
	v = calloc(n + 1, sizeof *v);
	ct->member[k] = calloc(n + 1, sizeof **ct->member);
	if (v == NULL || ct->member[k] == NULL) {
		free(v);
		return -1;
	}
	for (m = p->sym[p->nsyms + k].cyc_next, i = 0; m != PF_NONE; m = p->sym[m].cyc_next, i++) {
		v[i].time = whole_time(ct, p, m);
		v[i].calls = p->sym[m].ncalls + p->sym[m].self_calls;
		v[i].pos = i;
		v[i].id = m;
		ct->cycle_whole[k] += v[i].time;
	}
	qsort(v, n, sizeof *v, cmp_members);
	for (i = 0; i < n; i++)
		ct->member[k][i] = v[i].id;
	ct->nmember[k] = n;
	free(v);
	return 0;
}

/* The graph's facts the nodes need (struct calltree), once for the profile; 0, or -1. */
static int
graph(struct calltree *ct)
{
	const struct profile *p = ct->p;
	size_t n = (size_t)p->nsyms + p->ncycles + 1;
	uint32_t i;

	ct->on = calloc(n, 1);
	ct->slot = calloc(n, sizeof *ct->slot);
	ct->down = calloc(n, 1);
	ct->called = calloc(n, 1);
	ct->member = calloc((size_t)p->ncycles + 1, sizeof *ct->member);
	ct->nmember = calloc((size_t)p->ncycles + 1, sizeof *ct->nmember);
	ct->cycle_whole = calloc((size_t)p->ncycles + 1, sizeof *ct->cycle_whole);
	if (ct->on == NULL || ct->slot == NULL || ct->down == NULL || ct->called == NULL ||
	    ct->member == NULL || ct->nmember == NULL || ct->cycle_whole == NULL)
		return -1;
	for (i = 0; i < p->nsyms; i++) {
		ct->down[i] = (uint8_t)calls_out(p, i);
		ct->called[i] = (uint8_t)fn_called(p, i);
	}
	for (i = 0; i < p->ncycles; i++) {
		ct->called[p->nsyms + i] = (uint8_t)cycle_called(p, i);
		if (members(ct, i) != 0)
			return -1;
		ct->down[p->nsyms + i] = 1;
	}
	return 0;
}


struct calltree *
calltree_new(const struct profile *p, const struct pf_measure *m)
{
	struct calltree *ct = calloc(1, sizeof *ct);

	if (ct == NULL)
		return NULL;
	ct->p = p;
	ct->m = m;
	ct->ncycles = p->ncycles;
	ct->root = PF_NONE;
	if (graph(ct) != 0) {
		calltree_free(ct);
		return NULL;
	}
	return ct;
}

void
calltree_free(struct calltree *ct)
{
	uint32_t i;

	if (ct == NULL)
		return;
	for (i = 0; ct->member != NULL && i < ct->ncycles; i++)
		free(ct->member[i]);
	free(ct->member);
	free(ct->nmember);
	free(ct->cycle_whole);
	free(ct->on);
	free(ct->slot);
	free(ct->down);
	free(ct->called);
	free(ct->rows.v);
	free(ct->stack.v);
	free(ct->path);
	free(ct);
}

int
calltree_make(struct calltree *ct, struct report *r, uint32_t root, int inverted)
{
	ct->rows.n = 0;
	ct->root = root < ct->p->nsyms + ct->p->ncycles ? root : PF_NONE;
	ct->inverted = inverted;
	if (roots(ct, r) != 0 || (ct->rows.n > 0 && calltree_open(ct, 0, 1) < 0)) {
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
