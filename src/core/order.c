/* order: the flat-profile and call-graph orders, with gprof's comparators and glibc's sort. */
#include "order.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "util/msort.h"
#include "util/rsort.h"

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

/* cmp_total() for equal totals. */
static int
cmp_tie(const void *a, const void *b, void *ctx)
{
	const struct profile *p = ctx;
	uint32_t li = *(const uint32_t *)a, ri = *(const uint32_t *)b;
	const struct pf_sym *l = &p->sym[li], *r = &p->sym[ri];

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

/*
 * gprof's cmp_total(): total propagated time down; cycles first (two
 * cycles both claim to be first: glibc's merge keeps their number order);
 * names without a leading '_' first; calls down; raw name.
 */
static int
cmp_total(const void *a, const void *b, void *ctx)
{
	const struct profile *p = ctx;
	const struct pf_sym *l = &p->sym[*(const uint32_t *)a], *r = &p->sym[*(const uint32_t *)b];
	double diff = (l->prop_self + l->prop_child) - (r->prop_self + r->prop_child);

	if (diff < 0.0)
		return 1;
	if (diff > 0.0)
		return -1;
	return cmp_tie(a, b, ctx);
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
order_cg_sorted(struct profile *p)
{
	uint32_t i, n = p->nsyms + p->ncycles;

	p->cg_order = sorted_ids(p, n, cmp_total);
	if (p->cg_order == NULL)
		return -1;
	for (i = 0; i < n; i++)
		p->sym[p->cg_order[i]].index = (int)i + 1;
	return 0;
}

/* The same in linear time: the ties' order, then the totals' (a comparator sort misses at every step). */
int
order_cg(struct profile *p)
{
	uint32_t n = p->nsyms + p->ncycles, *ties = NULL, i;
	double *total = mem_array((size_t)n + 1, sizeof *total);
	int rc = -1;

	if (total != NULL && order_ties(p, &ties) == 0) {
		for (i = 0; i < n; i++)
			total[i] = p->sym[i].prop_self + p->sym[i].prop_child;
		rc = order_cg_again(p, ties, total);
	}
	free(ties);
	free(total);
	return rc;
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
 * The arcs grouped by callee (caller_start, caller_arc: each symbol's
 * callers) and by caller (callee_start, callee_arc), each group in
 * creation order (arc ids ascend with it), both in the same two sweeps of
 * the arcs.  The starts have room for every symbol and cycle header the
 * symbol array can hold; headers have empty groups.
 */
int
order_group(struct profile *p)
{
	return order_group_kids(p, NULL);
}

/* (KID written as the arcs are read in order: gathered afterwards, each is a miss.) */
int
order_group_kids(struct profile *p, uint32_t *kid)
{
	uint32_t n = p->nsyms, cap = (uint32_t)p->priv->symcap, i, a, *in, *out, *fill_in, *fill_out;

	p->caller_start = in = mem_calloc((size_t)cap + 1, sizeof *in);
	p->callee_start = out = mem_calloc((size_t)cap + 1, sizeof *out);
	p->caller_arc = mem_array(p->narcs, sizeof *p->caller_arc);
	p->callee_arc = mem_array(p->narcs, sizeof *p->callee_arc);
	/* (the scratch last: freed, it goes back to the top of the heap, not a hole below the rest) */
	fill_in = mem_array(n, sizeof *fill_in);
	fill_out = mem_array(n, sizeof *fill_out);
	if (!in || !out || !p->caller_arc || !p->callee_arc || !fill_in || !fill_out) {
		free(fill_in);
		free(fill_out);
		return -1;
	}
	for (a = 0; a < p->narcs; a++) {
		in[p->arc[a].child + 1]++;
		out[p->arc[a].parent + 1]++;
	}
	for (i = 0; i < cap; i++) {
		in[i + 1] += in[i];
		out[i + 1] += out[i];
	}
	memcpy(fill_in, in, n * sizeof *fill_in);
	memcpy(fill_out, out, n * sizeof *fill_out);
	for (a = 0; a < p->narcs; a++) {
		uint32_t k = fill_out[p->arc[a].parent]++;

		p->caller_arc[fill_in[p->arc[a].child]++] = a;
		p->callee_arc[k] = a;
		if (kid != NULL)
			kid[k] = p->arc[a].child;
	}
	free(fill_in);
	free(fill_out);
	return 0;
}

/*
 * How many groups ahead sort_groups() asks for a group's arcs (all over
 * memory), and half as far, those in, the cycles of their ends; the
 * first GROUP_ASKS of each.
 */
#define GROUP_AHEAD 8
#define GROUP_ASKS 16

static void
ask_group(const struct profile *p, const uint32_t *start, const uint32_t *arc, uint32_t g, int ends)
{
	uint32_t k;

	for (k = start[g]; k < start[g + 1] && k - start[g] < GROUP_ASKS; k++) {
		const struct pf_arc *a = &p->arc[arc[k]];

		if (ends) {
			mem_ask(&p->sym[a->parent].cycle);
			mem_ask(&p->sym[a->child].cycle);
		} else {
			mem_ask(a);
			mem_ask((const char *)(a + 1) - 1);
		}
	}
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
	for (i = 0; i < p->nsyms; i++) {
		if (i + GROUP_AHEAD < p->nsyms)
			ask_group(p, start, arc, i + GROUP_AHEAD, 0);
		if (i + GROUP_AHEAD / 2 < p->nsyms)
			ask_group(p, start, arc, i + GROUP_AHEAD / 2, 1);
		msort_ids_tmp(arc + start[i], start[i + 1] - start[i], tmp, cmp, p);
	}
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

/* ---- the orders again, after profile_narrow() changed the times ---- */

struct keyed_id {
	uint64_t key;
	uint32_t id;
};

/*
 * Stable passes of radix sort over K[0..N), each by one key KEY(CTX, id,
 * pass), the last pass first: the order of (first key, ..., last key, the
 * order K came in).  0 or -1.
 */
static int
sort_passes(struct keyed_id *k, uint32_t n, int npass,
    uint64_t (*key)(const void *, uint32_t, int), const void *ctx)
{
	uint32_t i;
	int pass;

	for (pass = npass; pass-- > 0;) {
		for (i = 0; i < n; i++)
			k[i].key = key(ctx, k[i].id, pass);
		if (rsort_records(k, n, sizeof *k, offsetof(struct keyed_id, key)) != 0)
			return -1;
	}
	return 0;
}

/* Bits to hold every number up to V. */
static unsigned
bits_upto(uint64_t v)
{
	unsigned b = 0;

	while (b < 64 && v >> b != 0)
		b++;
	return b;
}

/*
 * cmp_tie() as keys: cycles first, then symbols without a name (both in
 * id order: glibc's merge keeps the left one of two that both claim to be
 * first), then names without a leading '_', calls down, raw name.
 */
static uint64_t
tie_key(const void *ctx, uint32_t id, int pass)
{
	const struct profile *p = ctx;
	const struct pf_sym *s = &p->sym[id];
	int named = s->name != NULL;

	switch (pass) {
	case 0: return !named ? (s->cycle != 0 ? 0 : 1) : s->name[0] != '_' ? 2 : 3;
	case 1: return named ? ~s->ncalls : 0;
	default: return named ? p->name_rank[id] : 0;
	}
}

/*
 * tie_key()'s three keys packed in one, in id order (a sweep of the
 * symbols, not three at random), where they fit 64 bits: 1, else 0.
 */
static int
packed_ties(const struct profile *p, struct keyed_id *k, uint32_t n)
{
	uint64_t most = 0;
	uint32_t rank = 0, i;
	unsigned cb, rb;

	for (i = 0; i < n; i++) {
		if (p->sym[i].name == NULL)
			continue;
		most = p->sym[i].ncalls > most ? p->sym[i].ncalls : most;
		rank = p->name_rank[i] > rank ? p->name_rank[i] : rank;
	}
	cb = bits_upto(most);
	rb = bits_upto(rank);
	if (2 + cb + rb > 64)
		return 0;
	for (i = 0; i < n; i++) {
		uint64_t down = tie_key(p, i, 1);	/* ~calls, or 0 without a name */

		k[i].id = i;
		/* (down - ~most is most - calls: the same order, in CB bits) */
		k[i].key = (tie_key(p, i, 0) << cb | (down != 0 ? down - ~most : 0)) << rb | tie_key(p, i, 2);
	}
	return 1;
}

int
order_ties(const struct profile *p, uint32_t **out)
{
	uint32_t n = p->nsyms + p->ncycles, i;
	struct keyed_id *k = mem_array((size_t)n + 1, sizeof *k);

	*out = mem_array((size_t)n + 1, sizeof **out);
	if (k == NULL || *out == NULL)
		goto fail;
	if (packed_ties(p, k, n)) {
		if (rsort_records(k, n, sizeof *k, offsetof(struct keyed_id, key)) != 0)
			goto fail;
	} else {
		for (i = 0; i < n; i++)
			k[i].id = i;
		if (sort_passes(k, n, 3, tie_key, p) != 0)
			goto fail;
	}
	for (i = 0; i < n; i++)
		(*out)[i] = k[i].id;
	free(k);
	return 0;
fail:
	free(k);
	free(*out);
	*out = NULL;
	return -1;
}

/*
 * msort_ids() with cmp_total() gives the totals' order with cmp_tie()'s
 * order for equal totals (where two cycles both "first" come in id order,
 * as they do in TIES): so a stable sort of TIES by total gives the same,
 * in linear time.  Most totals are often 0: those keep their order in
 * TIES and only the others are sorted.  A NaN total compares equal to
 * every total: there only gprof's sort itself gives gprof's order.
 */
int
order_cg_again(struct profile *p, const uint32_t *ties, const double *total)
{
	uint32_t n = p->nsyms + p->ncycles, i, m = 0, at = 0;
	struct keyed_id *k = mem_array((size_t)n + 1, sizeof *k);

	if ((p->cg_order = mem_array((size_t)n + 1, sizeof *p->cg_order)) == NULL || k == NULL) {
		free(k);
		return -1;
	}
	for (i = 0; i < n; i++) {
		if (total[i] != total[i]) {	/* NaN */
			free(k);
			free(p->cg_order);
			return order_cg_sorted(p);
		}
	}
	for (i = 0; i < n; i++) {
		if (total[ties[i]] != 0.0) {
			k[m].key = rsort_down_key(total[ties[i]]);
			k[m++].id = ties[i];
		}
	}
	if (rsort_records(k, m, sizeof *k, offsetof(struct keyed_id, key)) != 0) {
		free(k);
		return -1;
	}
	/* The positive totals, the zeros, then the negative ones. */
	for (i = 0; i < m && k[i].key < rsort_down_key(0.0); i++)
		p->cg_order[at++] = k[i].id;
	for (m = 0; m < n; m++)
		if (total[ties[m]] == 0.0)
			p->cg_order[at++] = ties[m];
	for (; at < n; i++)
		p->cg_order[at++] = k[i].id;
	/* Each symbol's index, written in a stream. */
	for (i = 0; i < n; i++)
		k[p->cg_order[i]].id = i + 1;
	for (i = 0; i < n; i++)
		p->sym[i].index = (int)k[i].id;
	free(k);
	return 0;
}

/* cmp_time() for two symbols of equal calls and names: their times alone. */
static int
cmp_time_only(const void *a, const void *b, void *ctx)
{
	const struct profile *p = ctx;
	double diff = p->sym[*(const uint32_t *)b].time - p->sym[*(const uint32_t *)a].time;

	return diff > 0.0 ? 1 : diff < 0.0 ? -1 : 0;
}

/*
 * cmp_time()'s order but for the times (calls down, then name rank, then
 * id) into *OUT (owned), by one sort of (calls, rank, id) keys in place:
 * no more memory than a merge sort's.  0, 1 where the keys would not fit
 * 64 bits or a time is NaN (only gprof's sort gives its order then), -1
 * if out of memory.
 */
static int
flat_ties(const struct profile *p, uint32_t n, uint32_t **out)
{
	uint64_t most = 0, *k;
	uint32_t i, rank = 0, id;
	unsigned rb, ib = bits_upto(n), tb;

	for (i = 0; i < n; i++) {
		if (p->sym[i].time != p->sym[i].time)
			return 1;
		most = p->sym[i].ncalls > most ? p->sym[i].ncalls : most;
		rank = p->name_rank[i] > rank ? p->name_rank[i] : rank;
	}
	rb = bits_upto(rank);
	if ((tb = bits_upto(most) + rb + ib) > 64)
		return 1;
	if ((k = mem_array((size_t)n + 1, sizeof *k)) == NULL)
		return -1;
	for (i = 0; i < n; i++)
		k[i] = ((most - p->sym[i].ncalls) << rb | p->name_rank[i]) << ib | i;
	rsort_u64_inplace(k, n, tb);
	for (i = 0; i < n; i++) {	/* the ids over the keys: the Ith is written once K[I] is read */
		id = (uint32_t)(k[i] & (((uint64_t)1 << ib) - 1));
		memcpy((char *)k + (size_t)i * sizeof id, &id, sizeof id);
	}
	*out = realloc(k, ((size_t)n + 1) * sizeof id);
	if (*out == NULL)
		*out = (uint32_t *)(void *)k;
	return 0;
}

/*
 * gprof's flat order (msort_ids() with cmp_time()), in near-linear time:
 * flat_ties()' order, then the symbols with a time other than 0 sorted
 * stably by it, the positive ones placed first and the negative ones
 * last (as order_cg_again() places the totals).
 */
int
order_flat(struct profile *p)
{
	uint32_t n = p->nsyms, i, m = 0, at = 0, npos = 0, *o = NULL, *t;
	int rc = flat_ties(p, n, &o);

	if (rc == 1)
		return (p->flat_order = sorted_ids(p, n, cmp_time)) != NULL ? 0 : -1;
	if (rc != 0)
		return -1;
	for (i = 0; i < n; i++)
		m += p->sym[o[i]].time != 0.0;
	if ((t = mem_array((size_t)m + 1, sizeof *t)) == NULL) {
		free(o);
		return -1;
	}
	for (m = 0, i = 0; i < n; i++) {
		if (p->sym[o[i]].time != 0.0)
			t[m++] = o[i];
		else
			o[at++] = o[i];	/* the zeros, in order, to the front */
	}
	if (msort_ids(t, m, cmp_time_only, p) != 0) {
		free(o);
		free(t);
		return -1;
	}
	while (npos < m && p->sym[t[npos]].time > 0.0)
		npos++;
	memmove(o + npos, o, (size_t)at * sizeof *o);
	memcpy(o, t, (size_t)npos * sizeof *o);
	memcpy(o + npos + at, t + npos, (size_t)(m - npos) * sizeof *o);
	free(t);
	p->flat_order = o;
	return 0;
}

/* What cmp_arc() compares of an arc but its times: for static_groups()'s passes. */
struct arc_facts {
	const struct profile *p;
	const uint8_t *cls;	/* 0 an arc to itself, 1 within a cycle, 2 else */
	int up;			/* callers: least first; callees: greatest first */
};

static uint64_t
arc_key(const void *ctx, uint32_t a, int pass)
{
	const struct arc_facts *af = ctx;

	if (pass == 0)
		return af->up ? af->cls[a] : 2 - af->cls[a];
	return af->up ? af->p->arc[a].count : ~af->p->arc[a].count;
}

/*
 * Each arc into K at its group's next place (FILL: each group's, from its
 * start; so a group's arcs are in creation order), keyed by arc_key()'s
 * two passes as one, the class above the calls, in one sweep of the
 * arcs: 1 if every count is below 2^62 (then one sort of a group gives
 * the order two passes would), else 0.
 */
static int
place_arcs(struct keyed_id *k, uint32_t n, const struct arc_facts *af, uint32_t *fill)
{
	const uint64_t top = (uint64_t)1 << 62;
	uint32_t i;
	int fit = 1;

	for (i = 0; i < n; i++) {
		const struct pf_arc *a = &af->p->arc[i];
		struct keyed_id *r = &k[fill[af->up ? a->child : a->parent]++];
		uint64_t c = a->count;

		r->id = i;
		fit &= c < top;
		r->key = af->up ? (uint64_t)af->cls[i] << 62 | (c & (top - 1)) :
		    (uint64_t)(2 - af->cls[i]) << 62 | (top - 1 - (c & (top - 1)));
	}
	return fit;
}

/*
 * The runs of two arcs of class 2 or more in group J of OP (last among a
 * group's callers, first among its callees): only there do the times
 * decide.  0 or -1.
 */
static int
find_blocks(const struct profile *p, struct order_plan *op, int j, const uint8_t *cls)
{
	const uint32_t *start = j == ORDER_CALLERS ? p->caller_start : p->callee_start;
	const uint32_t *arc = op->group[j];
	size_t cap = 0;
	uint32_t i;

	op->nblock[j] = 0;
	for (i = 0; i < p->nsyms; i++) {
		uint32_t b = start[i], e = start[i + 1];

		if (j == ORDER_CALLERS)
			for (; b < e && cls[arc[b]] != 2; b++)
				;
		else
			for (e = b; e < start[i + 1] && cls[arc[e]] == 2; e++)
				;
		if (e - b < 2)
			continue;
		if (mem_reserve(&op->block[j], &cap, 3 * ((size_t)op->nblock[j] + 1),
		    sizeof *op->block[j]) != 0)
			return -1;
		op->block[j][3 * op->nblock[j]] = b;
		op->block[j][3 * op->nblock[j] + 1] = e;
		op->block[j][3 * op->nblock[j] + 2] = i;
		op->nblock[j]++;
	}
	return 0;
}

/*
 * Group J of plan OP: each group's arcs as cmp_arc() orders them when
 * their times are equal (by class, then calls; ties in creation order).
 * The arcs are placed in their groups first and each group sorted where
 * it lies: no pass over all of them moves more than once.  CLS: the arcs'
 * classes.  0 or -1.
 */
static int
static_groups(const struct profile *p, struct order_plan *op, int j, const uint8_t *cls)
{
	const uint32_t *start = j == ORDER_CALLERS ? p->caller_start : p->callee_start;
	struct arc_facts af = { p, cls, j == ORDER_CALLERS };
	uint32_t n = p->narcs, i, *fill = mem_array((size_t)p->nsyms + 1, sizeof *fill);
	struct keyed_id *k = mem_array((size_t)n + 1, sizeof *k);
	int fit = 1, rc = 0;

	op->group[j] = mem_array((size_t)n + 1, sizeof *op->group[j]);
	if (!fill || !k || !op->group[j])
		rc = -1;
	else {
		memcpy(fill, start, p->nsyms * sizeof *fill);
		fit = place_arcs(k, n, &af, fill);
	}
	for (i = 0; rc == 0 && i < p->nsyms; i++) {
		struct keyed_id *g = k + start[i];
		uint32_t m = start[i + 1] - start[i];

		if (m > 1)
			rc = fit ? rsort_records(g, m, sizeof *g, offsetof(struct keyed_id, key)) :
			    sort_passes(g, m, 2, arc_key, &af);
	}
	for (i = 0; rc == 0 && i < n; i++)
		op->group[j][i] = k[i].id;
	free(fill);
	free(k);
	return rc == 0 ? find_blocks(p, op, j, cls) : -1;
}

int
order_plan_begin(const struct profile *p, struct order_plan *op)
{
	int *cycle = mem_array((size_t)p->nsyms + 1, sizeof *cycle);
	uint32_t i;

	memset(op, 0, sizeof *op);
	op->cls = mem_array((size_t)p->narcs + 1, sizeof *op->cls);
	if (op->cls == NULL || cycle == NULL) {
		free(cycle);
		order_plan_release(op);
		return -1;
	}
	for (i = 0; i < p->nsyms; i++)
		cycle[i] = p->sym[i].cycle;
	for (i = 0; i < p->narcs; i++) {
		const struct pf_arc *a = &p->arc[i];

		op->cls[i] = a->parent == a->child ? 0 : cycle[a->parent] != 0 &&
		    cycle[a->parent] == cycle[a->child] ? 1 : 2;
	}
	free(cycle);
	return 0;
}

int
order_plan_group(const struct profile *p, struct order_plan *op, int j)
{
	return static_groups(p, op, j, op->cls);
}

void
order_plan_end(struct order_plan *op)
{
	free(op->cls);
	op->cls = NULL;
}

int
order_plan_build(const struct profile *p, struct order_plan *op)
{
	int rc;

	if (order_plan_begin(p, op) != 0)
		return -1;
	rc = order_ties(p, &op->ties) != 0 || order_plan_group(p, op, ORDER_CALLERS) != 0 ||
	    order_plan_group(p, op, ORDER_CALLEES) != 0 ? -1 : 0;
	order_plan_end(op);
	if (rc != 0)
		order_plan_release(op);
	return rc;
}

void
order_plan_release(struct order_plan *op)
{
	free(op->cls);
	free(op->ties);
	free(op->group[0]);
	free(op->group[1]);
	free(op->block[0]);
	free(op->block[1]);
	memset(op, 0, sizeof *op);
}

static int
cmp_u32(const void *a, const void *b)
{
	uint32_t l = *(const uint32_t *)a, r = *(const uint32_t *)b;

	return l < r ? -1 : l > r;
}

/* Places in a group compared by their times TT (ctx), the least first: for msort_ids(). */
static int
cmp_tt(const void *a, const void *b, void *ctx)
{
	const double *tt = ctx;
	double l = tt[*(const uint32_t *)a], r = tt[*(const uint32_t *)b];

	return l < r ? -1 : l > r;
}

/*
 * The arcs of class 2 at ARC[0..N), with times TT (aligned), stably by
 * time, the least first if UP.  In the static order they already have
 * cmp_arc()'s order for equal times, so this gives cmp_arc()'s order.
 * SCRATCH has room for 2 N.  Returns -1 when a time is NaN (no order).
 */
static int
sort_by_time(uint32_t *arc, const double *tt, size_t n, int up, uint32_t *scratch)
{
	uint32_t *pos = scratch, *tmp = scratch + n, *ids = tmp;
	size_t i;
	int sorted = 1;

	for (i = 0; i < n; i++) {
		if (tt[i] != tt[i])
			return -1;
		if (i > 0 && (up ? tt[i - 1] > tt[i] : tt[i - 1] < tt[i]))
			sorted = 0;
	}
	if (sorted)
		return 0;
	for (i = 0; i < n; i++)
		pos[i] = up ? (uint32_t)i : (uint32_t)(n - 1 - i);
	/* Down: sorting the reversed places ascending, then reversing, keeps ties in order. */
	msort_ids_tmp(pos, n, tmp, cmp_tt, (void *)tt);
	for (i = 0; i < n; i++)
		ids[i] = arc[pos[up ? i : n - 1 - i]];
	memcpy(arc, ids, n * sizeof *arc);
	return 0;
}

/* Group ARC[0..N) sorted as sort_groups() sorts it, from any order: gprof's sort itself. */
static void
sort_as_gprof(struct profile *p, uint32_t *arc, size_t n, int up, uint32_t *tmp)
{
	qsort(arc, n, sizeof *arc, cmp_u32);	/* creation order */
	msort_ids_tmp(arc, n, tmp, up ? cmp_arc_up : cmp_arc_down, p);
}

int
order_groups_again(struct profile *p, const struct order_plan *op, int j,
    double (*time)(const void *, uint32_t), const void *ctx)
{
	const uint32_t *start = j == ORDER_CALLERS ? p->caller_start : p->callee_start;
	uint32_t *arc = j == ORDER_CALLERS ? p->caller_arc : p->callee_arc, i, k, most = 0;
	uint32_t *scratch;
	double *tt;
	int up = j == ORDER_CALLERS, rc = 0;

	for (i = 0; i < p->nsyms; i++)
		most = start[i + 1] - start[i] > most ? start[i + 1] - start[i] : most;
	scratch = mem_array(2 * (size_t)most + 1, sizeof *scratch);
	tt = mem_array((size_t)most + 1, sizeof *tt);
	if (scratch == NULL || tt == NULL)
		rc = -1;
	else
		memcpy(arc, op->group[j], p->narcs * sizeof *arc);
	for (i = 0; rc == 0 && i < op->nblock[j]; i++) {
		const uint32_t *b = &op->block[j][3 * i];

		for (k = b[0]; k < b[1]; k++)
			tt[k - b[0]] = time(ctx, k);
		if (sort_by_time(arc + b[0], tt, b[1] - b[0], up, scratch) != 0)
			sort_as_gprof(p, arc + start[b[2]], start[b[2] + 1] - start[b[2]], up, scratch);
	}
	free(scratch);
	free(tt);
	return rc;
}
