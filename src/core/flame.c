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

/* Node AT's child for FRAME, with C more samples; PF_NONE when out of memory. */
static uint32_t
step(struct build *b, uint32_t at, uint32_t frame, double c)
{
	if ((at = child(b, at, frame)) != PF_NONE)
		b->f->node[at].total += c;	/* child() may move the nodes: no pointer is kept */
	return at;
}

/* Stack S's samples along its path; 0, or -1 when out of memory. */
static int
add_stack(struct build *b, const struct pf_measure *m, const struct pf_mstack *s)
{
	double c = (double)s->count;
	uint32_t at = 0, k;

	b->f->node[0].total += c;
	if (s->flags & TGSTACKS_TRUNCATED)
		at = step(b, at, FLAME_TRUNCATED, c);
	else if (!(s->flags & TGSTACKS_ROOT))
		at = step(b, at, FLAME_INCOMPLETE, c);
	for (k = 0; at != PF_NONE && k < s->depth; k++)
		at = step(b, at, m->frame[s->first + k], c);
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

int
flame_build(const struct pf_measure *m, struct pf_flame **out, struct diag *d)
{
	struct build b = { NULL, 0, { 0 } };
	size_t k;

	*out = NULL;
	u64map_init(&b.at);
	if ((b.f = calloc(1, sizeof *b.f)) == NULL || make_root(&b) != 0)
		goto oom;
	for (k = 0; k < m->nstack; k++)
		if (add_stack(&b, m, &m->stack[k]) != 0)
			goto oom;
	if (link_children(b.f) != 0)
		goto oom;
	u64map_release(&b.at);
	*out = b.f;
	return 0;
oom:
	u64map_release(&b.at);
	flame_free(b.f);
	return diag_oom(d);
}

void
flame_free(struct pf_flame *f)
{
	if (f == NULL)
		return;
	free(f->node);
	free(f);
}
