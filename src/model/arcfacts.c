/* arcfacts: what the call tree reads of gprof's call graph, made once a profile: who calls out, who is called, cycles' members, whose time is exact. */
#include "arcfacts.h"

#include <stdlib.h>
#include <string.h>

#include "util/msort.h"

uint32_t
arcfacts_as_node(const struct profile *p, uint32_t id)
{
	return id < p->nsyms && p->sym[id].cycle != 0 ? p->sym[id].cyc_head : id;
}

int
arcfacts_inside(const struct profile *p, uint32_t from, uint32_t to)
{
	return from != to && p->sym[from].cycle != 0 && p->sym[from].cyc_head == p->sym[to].cyc_head;
}

double
arcfacts_whole(const struct arcfacts *af, const struct profile *p, uint32_t id)
{
	if (id >= p->nsyms)
		return af->cycle_whole[id - p->nsyms];
	return p->sym[id].prop_self + p->sym[id].prop_child;
}

/* Has any function outside cycle K (0..) an arc into it? */
static int
cycle_called(const struct profile *p, uint32_t k)
{
	size_t n, j;
	const uint32_t *mem = profile_cycle_members(p, p->nsyms + k, &n);
	uint32_t m, i;

	for (j = 0; j < n; j++)
		for (m = mem[j], i = p->caller_start[m]; i < p->caller_start[m + 1]; i++)
			if (!arcfacts_inside(p, m, p->arc[p->caller_arc[i]].parent) &&
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

/* Has function I callees outside its cycle (it may call itself)? */
static int
calls_out(const struct profile *p, uint32_t i)
{
	uint32_t k;

	if (p->sym[i].cycle == 0)
		return p->callee_start[i + 1] > p->callee_start[i];
	for (k = p->callee_start[i]; k < p->callee_start[i + 1]; k++)
		if (!arcfacts_inside(p, i, p->arc[p->callee_arc[k]].child))
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
members(struct arcfacts *af, const struct profile *p, uint32_t k)
{
	struct keyed *v;
	size_t n, i;
	const uint32_t *mem = profile_cycle_members(p, p->nsyms + k, &n);

	v = calloc(n + 1, sizeof *v);
	af->member[k] = calloc(n + 1, sizeof **af->member);
	if (v == NULL || af->member[k] == NULL) {
		free(v);
		return -1;
	}
	for (i = 0; i < n; i++) {
		uint32_t m = mem[i];

		v[i].time = arcfacts_whole(af, p, m);
		v[i].calls = p->sym[m].ncalls + p->sym[m].self_calls;
		v[i].pos = i;
		v[i].id = m;
		af->cycle_whole[k] += v[i].time;
	}
	qsort(v, n, sizeof *v, cmp_members);
	for (i = 0; i < n; i++)
		af->member[k][i] = v[i].id;
	af->nmember[k] = n;
	free(v);
	return 0;
}

/*
 * Whether function F's whole time is exact, its callees' known (they come
 * first in topological order): not in a cycle, and each callee called
 * from F alone, its own time exact.
 */
static int
exact_of(const struct arcfacts *af, const struct profile *p, uint32_t f)
{
	uint32_t k;

	if (p->sym[f].cycle != 0)
		return 0;
	for (k = p->callee_start[f]; k < p->callee_start[f + 1]; k++) {
		const struct pf_arc *a = &p->arc[p->callee_arc[k]];

		if (a->child != f && (!af->exact[a->child] || a->count < p->sym[a->child].ncalls))
			return 0;
	}
	return 1;
}

static int
cmp_top(const void *a, const void *b, void *ctx)
{
	const struct profile *p = ctx;
	int x = p->sym[*(const uint32_t *)a].top_order, y = p->sym[*(const uint32_t *)b].top_order;

	return x < y ? -1 : x > y;
}

/* af->exact for every function, callees first (a callee's topological number is smaller); 0 or -1. */
static int
exactness(struct arcfacts *af, const struct profile *p)
{
	uint32_t *ids = calloc((size_t)p->nsyms + 1, sizeof *ids), i;

	if (ids == NULL)
		return -1;
	for (i = 0; i < p->nsyms; i++)
		ids[i] = i;
	if (msort_ids(ids, p->nsyms, cmp_top, (void *)p) != 0) {
		free(ids);
		return -1;
	}
	for (i = 0; i < p->nsyms; i++)
		af->exact[ids[i]] = (uint8_t)exact_of(af, p, ids[i]);
	free(ids);
	return 0;
}

int
arcfacts_make(struct arcfacts *af, const struct profile *p)
{
	size_t n = (size_t)p->nsyms + p->ncycles + 1;
	uint32_t i;

	memset(af, 0, sizeof *af);
	af->ncycles = p->ncycles;
	af->down = calloc(n, 1);
	af->called = calloc(n, 1);
	af->exact = calloc(n, 1);
	af->member = calloc((size_t)p->ncycles + 1, sizeof *af->member);
	af->nmember = calloc((size_t)p->ncycles + 1, sizeof *af->nmember);
	af->cycle_whole = calloc((size_t)p->ncycles + 1, sizeof *af->cycle_whole);
	if (af->down == NULL || af->called == NULL || af->exact == NULL || af->member == NULL ||
	    af->nmember == NULL || af->cycle_whole == NULL || exactness(af, p) != 0)
		goto oom;
	for (i = 0; i < p->nsyms; i++) {
		af->down[i] = (uint8_t)calls_out(p, i);
		af->called[i] = (uint8_t)fn_called(p, i);
	}
	for (i = 0; i < p->ncycles; i++) {
		af->called[p->nsyms + i] = (uint8_t)cycle_called(p, i);
		if (members(af, p, i) != 0)
			goto oom;
		af->down[p->nsyms + i] = 1;
	}
	return 0;
oom:
	arcfacts_release(af);
	return -1;
}

void
arcfacts_release(struct arcfacts *af)
{
	uint32_t i;

	for (i = 0; af->member != NULL && i < af->ncycles; i++)
		free(af->member[i]);
	free(af->member);
	free(af->nmember);
	free(af->cycle_whole);
	free(af->down);
	free(af->called);
	free(af->exact);
	memset(af, 0, sizeof *af);
}
