/* order: the flat-profile and call-graph orders, with gprof's comparators and glibc's sort. */
#include "order.h"

#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "util/msort.h"

static int
cmp_name(const void *a, const void *b, void *ctx)
{
	const struct pf_sym *s = ctx;

	return strcmp(s[*(const uint32_t *)a].name, s[*(const uint32_t *)b].name);
}

/*
 * The sorts below break ties with strcmp() on raw names; one sort by name
 * gives every symbol a rank that compares the same, cheaply.
 */
int
order_names(struct profile *p)
{
	uint32_t i, rank = 0;

	p->name_rank = mem_array(p->nsyms, sizeof *p->name_rank);
	if (p->name_rank == NULL || (p->name_order = mem_array(p->nsyms, sizeof *p->name_order)) == NULL)
		return -1;
	for (i = 0; i < p->nsyms; i++)
		p->name_order[i] = i;
	if (msort_ids(p->name_order, p->nsyms, cmp_name, p->sym) != 0)
		return -1;
	for (i = 0; i < p->nsyms; i++) {
		if (i > 0 && cmp_name(&p->name_order[i - 1], &p->name_order[i], p->sym) != 0)
			rank++;
		p->name_rank[p->name_order[i]] = rank;
	}
	return 0;
}

static int
cmp_rank(const struct profile *p, uint32_t l, uint32_t r)
{
	return p->name_rank[l] < p->name_rank[r] ? -1 : p->name_rank[l] > p->name_rank[r];
}

/* gprof's cmp_time(): self time down, then calls down, then raw name. */
static int
cmp_time(const void *a, const void *b, void *ctx)
{
	const struct profile *p = ctx;
	uint32_t li = *(const uint32_t *)a, ri = *(const uint32_t *)b;
	const struct pf_sym *l = &p->sym[li], *r = &p->sym[ri];
	double diff = r->time - l->time;

	if (diff > 0.0)
		return 1;
	if (diff < 0.0)
		return -1;
	if (r->ncalls != l->ncalls)
		return r->ncalls > l->ncalls ? 1 : -1;
	return cmp_rank(p, li, ri);
}

/*
 * gprof's cmp_total(): total propagated time down; cycles first (two
 * cycles both claim to be first: glibc's merge keeps their number order);
 * names without a leading '_' first; calls down; raw name.
 */
static int
cmp_total(const void *a, const void *b, void *ctx)
{
	const struct profile *p = ctx;
	uint32_t li = *(const uint32_t *)a, ri = *(const uint32_t *)b;
	const struct pf_sym *l = &p->sym[li], *r = &p->sym[ri];
	double diff = (l->prop_self + l->prop_child) - (r->prop_self + r->prop_child);

	if (diff < 0.0)
		return 1;
	if (diff > 0.0)
		return -1;
	if (l->name == NULL && l->cycle != 0)
		return -1;
	if (r->name == NULL && r->cycle != 0)
		return 1;
	if (l->name == NULL)
		return -1;
	if (r->name == NULL)
		return 1;
	if (l->name[0] != '_' && r->name[0] == '_')
		return -1;
	if (l->name[0] == '_' && r->name[0] != '_')
		return 1;
	if (l->ncalls != r->ncalls)
		return l->ncalls > r->ncalls ? -1 : 1;
	return cmp_rank(p, li, ri);
}

static uint32_t *
sorted_ids(struct profile *p, uint32_t n, msort_cmp cmp)
{
	uint32_t *ids = mem_array(n, sizeof *ids), i;

	if (ids == NULL)
		return NULL;
	for (i = 0; i < n; i++)
		ids[i] = i;
	if (msort_ids(ids, n, cmp, p) != 0) {
		free(ids);
		return NULL;
	}
	return ids;
}

int
order_flat(struct profile *p)
{
	p->flat_order = sorted_ids(p, p->nsyms, cmp_time);
	return p->flat_order != NULL ? 0 : -1;
}

int
order_cg(struct profile *p)
{
	uint32_t i, n = p->nsyms + p->ncycles;

	p->cg_order = sorted_ids(p, n, cmp_total);
	if (p->cg_order == NULL)
		return -1;
	for (i = 0; i < n; i++)
		p->sym[p->cg_order[i]].index = (int)i + 1;
	return 0;
}

static int
in_same_cycle(const struct profile *p, const struct pf_arc *a)
{
	int pc = p->sym[a->parent].cycle, cc = p->sym[a->child].cycle;

	return pc != 0 && cc != 0 && pc == cc;
}

/* gprof's cmp_arc(): self arcs least, then calls within a cycle (by count), then time, count. */
static int
cmp_arc(const struct profile *p, uint32_t la, uint32_t ra)
{
	const struct pf_arc *l = &p->arc[la], *r = &p->arc[ra];
	double lt, rt;

	if (l->parent == l->child)
		return -1;
	if (r->parent == r->child)
		return 1;
	if (in_same_cycle(p, l)) {
		if (!in_same_cycle(p, r))
			return -1;
		return l->count < r->count ? -1 : l->count > r->count;
	}
	if (in_same_cycle(p, r))
		return 1;
	lt = l->time + l->child_time;
	rt = r->time + r->child_time;
	if (lt < rt)
		return -1;
	if (lt > rt)
		return 1;
	return l->count < r->count ? -1 : l->count > r->count;
}

static int
cmp_arc_up(const void *a, const void *b, void *ctx)
{
	return cmp_arc(ctx, *(const uint32_t *)a, *(const uint32_t *)b);
}

static int
cmp_arc_down(const void *a, const void *b, void *ctx)
{
	return cmp_arc(ctx, *(const uint32_t *)b, *(const uint32_t *)a);
}

/*
 * Groups the arcs by caller (BY_PARENT) or callee, each group in creation
 * order (arc ids ascend with it).  START has room for every symbol and
 * cycle header the symbol array can hold; headers have empty groups.
 */
static int
group(struct profile *p, int by_parent, uint32_t **startp, uint32_t **arcp)
{
	uint32_t n = p->nsyms, cap = (uint32_t)p->priv->symcap, i, a, *start, *arc, *fill;

	*startp = start = mem_calloc((size_t)cap + 1, sizeof *start);
	*arcp = arc = mem_array(p->narcs, sizeof *arc);
	fill = mem_array(n, sizeof *fill);
	if (start == NULL || arc == NULL || fill == NULL) {
		free(fill);
		return -1;
	}
	for (a = 0; a < p->narcs; a++)
		start[(by_parent ? p->arc[a].parent : p->arc[a].child) + 1]++;
	for (i = 0; i < cap; i++)
		start[i + 1] += start[i];
	for (i = 0; i < n; i++)
		fill[i] = start[i];
	for (a = 0; a < p->narcs; a++)
		arc[fill[by_parent ? p->arc[a].parent : p->arc[a].child]++] = a;
	free(fill);
	return 0;
}

int
order_group(struct profile *p)
{
	if (group(p, 0, &p->caller_start, &p->caller_arc) != 0 ||
	    group(p, 1, &p->callee_start, &p->callee_arc) != 0)
		return -1;
	return 0;
}

/*
 * gprof insertion-sorts each list as it prints it, newest arc first, each
 * inserted before the first element it does not exceed: that equals a
 * stable sort of the group in creation order.
 */
static int
sort_groups(struct profile *p, const uint32_t *start, uint32_t *arc, msort_cmp cmp)
{
	uint32_t *tmp = mem_array(p->narcs, sizeof *tmp), i;

	if (tmp == NULL)
		return -1;
	for (i = 0; i < p->nsyms; i++)
		msort_ids_tmp(arc + start[i], start[i + 1] - start[i], tmp, cmp, p);
	free(tmp);
	return 0;
}

int
order_callers(struct profile *p)
{
	return sort_groups(p, p->caller_start, p->caller_arc, cmp_arc_up);
}

int
order_callees(struct profile *p)
{
	return sort_groups(p, p->callee_start, p->callee_arc, cmp_arc_down);
}
