/* flame: the call stacks merged into one tree of frames, the flame graph's (icicle's) data. */
#include "flame.h"

#include <stdlib.h>
#include <string.h>

#include "input/gmon_out.h"
#include "util/mem.h"
#include "util/msort.h"
#include "util/u64map.h"

struct build {
	struct pf_flame *f;
	size_t cap;
	struct u64map at;	/* (parent << 32 | frame) -> node */
	const struct flame_view *v;
	uint32_t *path;		/* a stack's frames as the view has them */
	uint32_t *pos;		/* per symbol id and other frame: its place on PATH + 1, or 0 */
	uint32_t nsym;		/* symbol ids below it (the measure's largest + 1) */
};

/* The child of node PARENT for FRAME, made if it is new; PF_NONE when out of memory. */
static uint32_t
child(struct build *b, uint32_t parent, uint32_t frame)
{
	struct pf_flame *f = b->f;
	uint64_t key = (uint64_t)parent << 32 | frame;
	uint32_t k = u64map_get(&b->at, key);
	struct pf_flame_node *x;

	if (k != U64MAP_NONE)
		return k;
	if (f->n >= UINT32_MAX - 1 || mem_reserve(&f->node, &b->cap, f->n + 1, sizeof *f->node) != 0 ||
	    u64map_put(&b->at, key, (uint32_t)f->n) != 0)
		return PF_NONE;
	x = &f->node[f->n];
	memset(x, 0, sizeof *x);
	x->frame = frame;
	x->parent = parent;
	x->child = x->next = PF_NONE;
	x->depth = f->node[parent].depth + 1;
	if (x->depth > f->max_depth)
		f->max_depth = x->depth;
	return (uint32_t)f->n++;
}

/* Node AT's child for FRAME, with C more samples, W of them a wait's; PF_NONE when out of memory. */
static uint32_t
step(struct build *b, uint32_t at, uint32_t frame, double c, double w)
{
	if ((at = child(b, at, frame)) != PF_NONE) {
		b->f->node[at].total += c;	/* child() may move the nodes: no pointer is kept */
		b->f->node[at].wait += w;
	}
	return at;
}

/* FRAME's slot in b->pos, or NULL for a frame that is neither a symbol nor a library's. */
static uint32_t *
slot(struct build *b, const struct pf_measure *m, uint32_t frame)
{
	if (frame < b->nsym)
		return &b->pos[frame];
	if (frame >= PF_FRAME_OTHER && frame - PF_FRAME_OTHER < m->nother && frame != PF_FRAME_UNKNOWN)
		return &b->pos[(size_t)b->nsym + (frame - PF_FRAME_OTHER)];
	return NULL;
}

/*
 * Stack S's frames, outermost first, into b->path with recursion as the
 * view collapses it: a frame already on the path takes the path back to
 * its first place there, unless it calls itself directly (the frame
 * before is its own) and only indirect recursion is collapsed.  Their
 * number.
 */
static uint32_t
collapse(struct build *b, const struct pf_measure *m, const struct pf_mstack *s)
{
	uint32_t n = 0, k, f, *at;

	for (k = 0; k < s->depth; k++) {
		f = m->frame[s->first + k];
		at = b->v->collapse != FLAME_RECURSION_SHOWN ? slot(b, m, f) : NULL;
		if (at != NULL && *at != 0 && (b->v->collapse == FLAME_RECURSION_ALL || b->path[n - 1] != f)) {
			while (n > *at) {	/* back to F's own place */
				uint32_t *q = slot(b, m, b->path[--n]);

				if (q != NULL && *q == n + 1)
					*q = 0;
			}
			continue;
		}
		if (at != NULL && *at == 0)
			*at = n + 1;
		b->path[n++] = f;
	}
	for (k = 0; b->v->collapse != FLAME_RECURSION_SHOWN && k < n; k++)
		if ((at = slot(b, m, b->path[k])) != NULL && *at == k + 1)
			*at = 0;
	return n;
}

/* Where ROOT first is on the path of N frames, or N. */
static uint32_t
first_of(const struct build *b, uint32_t n, uint32_t root)
{
	uint32_t k;

	for (k = 0; k < n && b->path[k] != root; k++)
		;
	return k;
}

/* Stack S's marker, FLAME_TRUNCATED or FLAME_INCOMPLETE, or 0 for a stack that reached its root. */
static uint32_t
marker(const struct pf_mstack *s)
{
	return s->flags & TGSTACKS_TRUNCATED ? FLAME_TRUNCATED :
	    !(s->flags & TGSTACKS_ROOT) ? FLAME_INCOMPLETE : 0;
}

/* Stack S's samples along its path in the view; 0, or -1 when out of memory. */
static int
add_stack(struct build *b, const struct pf_measure *m, const struct pf_mstack *s)
{
	const struct flame_view *v = b->v;
	double c = s->weight, w = s->flags & TGSTACKS_WAIT ? c : 0;
	uint32_t n, from, at = 0, k;

	if (c <= 0)
		return 0;	/* the profiler's, or all -pg's (tally.h) */
	n = collapse(b, m, s);
	from = v->root == PF_NONE ? 0 : first_of(b, n, v->root);
	if (from == n && v->root != PF_NONE)
		return 0;	/* not through ROOT */
	b->f->node[0].total += c;
	b->f->node[0].wait += w;
	if (!v->callers && v->root == PF_NONE && marker(s) != 0)
		at = step(b, at, marker(s), c, w);
	if (!v->callers)
		for (k = from; at != PF_NONE && k < n; k++)
			at = step(b, at, b->path[k], c, w);
	else
		for (k = v->root == PF_NONE ? n : from + 1; at != PF_NONE && k-- > 0;)
			at = step(b, at, b->path[k], c, w);
	if (v->callers && at != PF_NONE && marker(s) != 0)
		at = step(b, at, marker(s), c, w);
	if (at == PF_NONE)
		return -1;
	b->f->node[at].self += c;
	return 0;
}

/* Node 0, the root; 0, or -1 when out of memory. */
static int
make_root(struct build *b)
{
	struct pf_flame_node *r;

	if (mem_reserve(&b->f->node, &b->cap, 1, sizeof *b->f->node) != 0)
		return -1;
	r = &b->f->node[0];
	memset(r, 0, sizeof *r);
	r->frame = r->parent = r->child = r->next = PF_NONE;
	b->f->n = 1;
	return 0;
}

/* Most samples first, then by frame: the order children are linked in. */
static int
cmp_node(const void *a, const void *b, void *ctx)
{
	const struct pf_flame_node *n = ctx;
	const struct pf_flame_node *x = &n[*(const uint32_t *)a], *y = &n[*(const uint32_t *)b];

	if (x->parent != y->parent)
		return x->parent < y->parent ? -1 : 1;
	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	return x->frame < y->frame ? -1 : x->frame > y->frame;
}

/* Links each node's children in cmp_node()'s order; 0, or -1 when out of memory. */
static int
link_children(struct pf_flame *f)
{
	uint32_t *ids = mem_array(f->n, sizeof *ids), i;

	if (ids == NULL)
		return -1;
	for (i = 0; i < f->n; i++)
		ids[i] = i;
	if (msort_ids(ids + 1, f->n - 1, cmp_node, f->node) != 0) {
		free(ids);
		return -1;
	}
	for (i = f->n - 1; i >= 1; i--) {	/* backwards: each is put first */
		struct pf_flame_node *x = &f->node[ids[i]], *p = &f->node[x->parent];

		x->next = p->child;
		p->child = ids[i];
	}
	free(ids);
	return 0;
}

/* The scratch of a view's build: a path and the places of M's frames; 0, or -1. */
static int
scratch(struct build *b, const struct pf_measure *m)
{
	uint32_t depth = 1;
	size_t k;

	for (k = 0; k < m->nstack; k++)
		depth = m->stack[k].depth > depth ? m->stack[k].depth : depth;
	for (k = 0; k < m->nstack; k++) {
		const struct pf_mstack *s = &m->stack[k];
		uint32_t i;

		for (i = 0; i < s->depth; i++)
			if (m->frame[s->first + i] < PF_FRAME_OTHER && m->frame[s->first + i] >= b->nsym)
				b->nsym = m->frame[s->first + i] + 1;
	}
	b->path = mem_array(depth, sizeof *b->path);
	b->pos = mem_calloc((size_t)b->nsym + m->nother + 1, sizeof *b->pos);
	return b->path != NULL && b->pos != NULL ? 0 : -1;
}

int
flame_build_view(const struct pf_measure *m, const struct flame_view *v, struct pf_flame **out,
    struct diag *d)
{
	struct build b = { NULL, 0, { 0 }, v, NULL, NULL, 0 };
	size_t k;
	int rc = -1;

	*out = NULL;
	u64map_init(&b.at);
	if ((b.f = calloc(1, sizeof *b.f)) == NULL || make_root(&b) != 0 || scratch(&b, m) != 0)
		goto done;
	for (k = 0; k < m->nstack; k++)
		if (add_stack(&b, m, &m->stack[k]) != 0)
			goto done;
	if (link_children(b.f) == 0)
		rc = 0;
done:
	u64map_release(&b.at);
	free(b.path);
	free(b.pos);
	if (rc != 0) {
		flame_free(b.f);
		return diag_oom(d);
	}
	*out = b.f;
	return 0;
}

int
flame_build(const struct pf_measure *m, struct pf_flame **out, struct diag *d)
{
	static const struct flame_view whole = { PF_NONE, 0, FLAME_RECURSION_SHOWN };

	return flame_build_view(m, &whole, out, d);
}

void
flame_free(struct pf_flame *f)
{
	if (f == NULL)
		return;
	free(f->node);
	free(f);
}
