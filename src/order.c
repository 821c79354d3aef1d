/* order: the flat-profile and call-graph orders, with gprof's comparators and glibc's sort. */
#include "pfpriv.h"

#include <stdlib.h>
#include <string.h>

#include "msort.h"

/* gprof's cmp_time(): self time down, then calls down, then raw name. */
static int
cmp_time(const void *a, const void *b, void *ctx)
{
	const struct pf_sym *s = ctx;
	const struct pf_sym *l = &s[*(const uint32_t *)a], *r = &s[*(const uint32_t *)b];
	double diff = r->time - l->time;

	if (diff > 0.0)
		return 1;
	if (diff < 0.0)
		return -1;
	if (r->ncalls != l->ncalls)
		return r->ncalls > l->ncalls ? 1 : -1;
	return strcmp(l->name, r->name);
}

/*
 * gprof's cmp_total(): total propagated time down; cycles first (two
 * cycles both claim to be first: glibc's merge keeps their number order);
 * names without a leading '_' first; calls down; raw name.
 */
static int
cmp_total(const void *a, const void *b, void *ctx)
{
	const struct pf_sym *s = ctx;
	const struct pf_sym *l = &s[*(const uint32_t *)a], *r = &s[*(const uint32_t *)b];
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
	return strcmp(l->name, r->name);
}

static uint32_t *
sorted_ids(struct profile *p, uint32_t n, msort_cmp cmp)
{
	uint32_t *ids = mem_array(n, sizeof *ids), i;

	if (ids == NULL)
		return NULL;
	for (i = 0; i < n; i++)
		ids[i] = i;
	if (msort_ids(ids, n, cmp, p->sym) != 0) {
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
