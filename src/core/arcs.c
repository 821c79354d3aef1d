/* arcs: call arcs between symbols, created and counted as gprof's cg_tally() and arc_add() do. */
#include "arcs.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arcsort.h"
#include "core.h"
#include "linemap.h"
#include "srclines.h"
#include "util/mem.h"

static size_t
slot_of(uint32_t parent, uint32_t child, size_t cap)
{
	return (size_t)u64map_mix((uint64_t)parent << 32 | child) & (cap - 1);
}

/* The slot holding the arc PARENT -> CHILD, or the empty one where it would go. */
static size_t
probe(const struct profile *p, uint32_t parent, uint32_t child)
{
	const struct arcindex *x = &p->priv->arcmap;
	size_t i;

	for (i = slot_of(parent, child, x->cap); x->slot[i] != PF_NONE; i = (i + 1) & (x->cap - 1)) {
		const struct pf_arc *a = &p->arc[x->slot[i]];

		if (a->parent == parent && a->child == child)
			break;
	}
	return i;
}

uint32_t
arcs_find(const struct profile *p, uint32_t parent, uint32_t child)
{
	return p->priv->arcmap.cap == 0 ? PF_NONE : p->priv->arcmap.slot[probe(p, parent, child)];
}

/* At most three quarters full; the arcs already made are indexed again. */
int
arcs_reserve_index(struct profile *p, size_t n)
{
	struct arcindex *x = &p->priv->arcmap, old = *x;
	size_t cap = 64;
	uint32_t a;

	while (cap / 4 * 3 <= n) {
		if (cap > SIZE_MAX / 8)
			return -1;
		cap *= 2;
	}
	if (cap <= old.cap)
		return 0;
	if ((x->slot = mem_array(cap, sizeof *x->slot)) == NULL) {
		x->slot = old.slot;
		return -1;
	}
	memset(x->slot, 0xff, cap * sizeof *x->slot);
	x->cap = cap;
	for (a = 0; a < p->narcs; a++)
		x->slot[probe(p, p->arc[a].parent, p->arc[a].child)] = a;
	free(old.slot);
	return 0;
}

void
arcs_release_index(struct profile *p)
{
	free(p->priv->arcmap.slot);
	memset(&p->priv->arcmap, 0, sizeof p->priv->arcmap);
	free(p->priv->arckey);
	p->priv->arckey = NULL;
	p->priv->arckeycap = 0;
}

/*
 * gprof's arc_lookup() walks the caller's list for an arc whose callee
 * range contains CHILD's.  Callee ranges of tallied arcs are disjoint
 * functions, so that is an exact match, found by hashing; -c can add arcs
 * to line symbols under -l, where only the walk gives gprof's answer.
 */
static uint32_t
find_by_range(const struct profile *p, uint32_t parent, uint32_t child)
{
	const struct pf_sym *c = &p->sym[child];
	uint32_t a;

	for (a = p->sym[parent].children; a != PF_NONE; a = p->arc[a].next_child) {
		const struct pf_sym *ac = &p->sym[p->arc[a].child];

		if (c->addr >= ac->addr && c->end_addr <= ac->end_addr)
			return a;
	}
	return PF_NONE;
}

/* Adds COUNT calls from PARENT to CHILD, creating the arc if needed; 0 or -1. */
int
arcs_add(struct profile *p, uint32_t parent, uint32_t child, uint64_t count, int by_range)
{
	struct pf_private *pv = p->priv;
	struct pf_arc *arc;
	uint32_t a;

	if (p->narcs == PF_NONE - 1)
		return -1;
	/* The index is made when first needed (tallying by sorting makes none). */
	if (!by_range && pv->arcmap.cap == 0 && arcs_reserve_index(p, (size_t)p->narcs + 1) != 0)
		return -1;
	a = by_range ? find_by_range(p, parent, child) : arcs_find(p, parent, child);
	if (a != PF_NONE) {
		p->arc[a].count += count;
		return 0;
	}
	if ((pv->arcmap.cap > 0 && (size_t)p->narcs + 1 > pv->arcmap.cap / 4 * 3 &&
	    arcs_reserve_index(p, (size_t)p->narcs + 1) != 0) ||
	    mem_reserve(&p->arc, &pv->arccap, p->narcs + 1, sizeof *p->arc) != 0)
		return -1;
	a = p->narcs;
	arc = &p->arc[a];
	memset(arc, 0, sizeof *arc);
	arc->parent = parent;
	arc->child = child;
	arc->count = count;
	/* Both lists are newest first; DFS order and ties depend on it. */
	arc->next_child = p->sym[parent].children;
	p->sym[parent].children = a;
	arc->next_parent = p->sym[child].parents;
	p->sym[child].parents = a;
	if (pv->arcmap.cap > 0)
		pv->arcmap.slot[probe(p, parent, child)] = a;
	p->narcs++;
	return 0;
}

/*
 * Tallying by sorting: the record PARENT -> CHILD kept as provisional arc
 * number narcs, and its key; arcs_settle() makes the arcs.  0 or -1.
 */
static int
keep(struct profile *p, uint32_t parent, uint32_t child, uint64_t count)
{
	struct pf_private *pv = p->priv;
	unsigned shift = pv->seqbits;
	struct pf_arc *arc;

	if ((size_t)p->narcs + 1 >= (size_t)1 << pv->seqbits) {
		/* More records than counted: the rest through the index. */
		if (arcs_settle(p) != 0)
			return -1;
		return arcs_add(p, parent, child, count, 0);
	}
	if (mem_reserve(&p->arc, &pv->arccap, p->narcs + 1, sizeof *p->arc) != 0 ||
	    mem_reserve(&pv->arckey, &pv->arckeycap, p->narcs + 1, sizeof *pv->arckey) != 0)
		return -1;
	arc = &p->arc[p->narcs];
	memset(arc, 0, sizeof *arc);
	arc->parent = parent;
	arc->child = child;
	arc->count = count;
	arc->next_child = arc->next_parent = PF_NONE;
	pv->arckey[p->narcs] = ((uint64_t)parent << pv->idbits | child) << shift | p->narcs;
	p->narcs++;
	return 0;
}

/* Symbol I's fact (struct tally_fact), FUNC the function at or before it (PF_NONE: none). */
static struct tally_fact
fact_with(const struct profile *p, uint32_t i, uint32_t func)
{
	const struct pf_sym *s = &p->sym[i];
	struct tally_fact f;

	f.end_addr = s->end_addr;
	f.lookup = s->fold == PF_NONE ? i : s->fold;
	f.callee = func;
	/* A call into a line or a label counts for the function before it, folded into its parent if a clone. */
	if (func != PF_NONE && p->sym[func].fold != PF_NONE)
		f.callee = p->sym[func].fold | TALLY_FOLDED;
	return f;
}

/* Symbol I's fact, from the array or worked out (the function before it found by walking back). */
static struct tally_fact
fact_at(const struct profile *p, uint32_t i)
{
	uint32_t func = i;

	if (p->priv->fact != NULL)
		return p->priv->fact[i];
	while (func != PF_NONE && !p->sym[func].is_func)
		func = func == 0 ? PF_NONE : func - 1;
	return fact_with(p, i, func);
}

void
arcs_tally_begin(struct profile *p)
{
	struct pf_private *pv = p->priv;
	uint32_t i, func = PF_NONE;

	/* (ids with TALLY_FOLDED's bit are beyond any symbol table read) */
	if (pv->fact != NULL || p->nsyms >= TALLY_FOLDED)
		return;
	pv->fact = mem_array((size_t)p->nsyms + 1, sizeof *pv->fact);
	pv->calls = mem_calloc((size_t)p->nsyms + 1, sizeof *pv->calls);
	if (pv->fact == NULL || pv->calls == NULL) {
		arcs_tally_end(p);
		return;
	}
	for (i = 0; i < p->nsyms; i++) {
		if (p->sym[i].is_func)
			func = i;
		pv->fact[i] = fact_with(p, i, func);
	}
}

/*
 * The calls into each symbol, from the arcs the records made (provisional
 * ones too: each holds its records' sum): one sweep of them, not a write
 * at random per record while they are read.
 */
void
arcs_tally_end(struct profile *p)
{
	struct pf_private *pv = p->priv;
	uint32_t a, i;

	for (a = 0; pv->calls != NULL && pv->fact != NULL && a < p->narcs; a++) {
		if (a + 16 < p->narcs)
			__builtin_prefetch(&pv->calls[p->arc[a + 16].child], 1);
		pv->calls[p->arc[a].child] += p->arc[a].count;
	}
	for (i = 0; pv->calls != NULL && pv->fact != NULL && i < p->nsyms; i++)
		p->sym[i].ncalls += pv->calls[i];
	free(pv->fact);
	free(pv->calls);
	pv->fact = NULL;
	pv->calls = NULL;
}

/* Whether FROM's floor I, with fact F, holds FROM. */
static int
holds(uint32_t i, const struct tally_fact *f, uint64_t addr)
{
	return i != UINT32_MAX && addr <= f->end_addr;
}

/* The arc symspecs' verdict on PARENT -> CHILD (none given: all are chosen). */
static int
chosen(const struct profile *p, uint32_t parent, uint32_t child)
{
	const struct symspecs *ss = &p->priv->specs;
	const struct pf_sym *pc = &p->sym[child];

	if (symspec_empty(ss, SPEC_INCL_ARCS) && symspec_empty(ss, SPEC_INCL_ARCS + 1))
		return 1;
	return symspec_arc_chosen(ss, SPEC_INCL_ARCS, p->sym[parent].addr, pc->addr, pc->end_addr);
}

/* What the record FROM -> SELF comes to (arcs.h), FROM_AT and SELF_AT the symbol index's floors. */
static void
judge(const struct profile *p, uint64_t from, uint64_t self, uint32_t from_at, uint32_t self_at,
    struct arc_verdict *v)
{
	const struct pf_private *pv = p->priv;
	struct tally_fact pf, sf;
	uint64_t off;

	v->parent = v->child = PF_NONE;
	v->entry = ARCS_UNKNOWN;
	if (self_at == UINT32_MAX || (sf = fact_at(p, self_at), !holds(self_at, &sf, self)))
		return;
	off = self - (self_at < pv->index.n ? pv->index.addr[self_at] : p->sym[self_at].addr);
	v->entry = off < ARCS_ENTRY_REACH ? (uint16_t)off : ARCS_ENTRY_REACH;
	if (from_at == UINT32_MAX || (pf = fact_at(p, from_at), !holds(from_at, &pf, from)) ||
	    sf.callee == PF_NONE)
		return;
	v->child = sf.callee & ~TALLY_FOLDED;
	if ((sf.callee & TALLY_FOLDED) && v->child == pf.lookup)
		v->child = PF_NONE;	/* into its own clone: within one function, folded */
	else if (chosen(p, pf.lookup, v->child))
		v->parent = pf.lookup;
}

int
arcs_apply(struct profile *p, uint64_t from, uint64_t count, const struct arc_verdict *v,
    struct diag *d)
{
	struct pf_private *pv = p->priv;

	if (v->entry == ARCS_UNKNOWN)
		return 0;
	pv->arcs_known++;	/* a call into its code: the file is this program's */
	if (v->entry < ARCS_ENTRY_REACH)	/* where -pg's call is, if its */
		pv->arc_offset[v->entry]++;
	if (v->parent == PF_NONE)
		return 0;
	if (pv->calls == NULL)	/* (else counted from the arcs: arcs_tally_end()) */
		p->sym[v->child].ncalls += count;
	if ((pv->arckey != NULL ? keep(p, v->parent, v->child, count) :
	    arcs_add(p, v->parent, v->child, count, 0)) != 0)
		return diag_oom(d);
	if (pv->opts != NULL && pv->opts->source_lines && linemap_add_site(p, from, v->child, count) != 0)
		return diag_oom(d);
	return 0;
}

/* arcs_tally(), FROM_AT and SELF_AT the symbol index's floors of FROM and SELF. */
static int
tally_at(struct profile *p, uint64_t from, uint64_t self, uint64_t count, uint32_t from_at,
    uint32_t self_at, struct diag *d)
{
	struct arc_verdict v;

	judge(p, from, self, from_at, self_at, &v);
	return arcs_apply(p, from, count, &v, d);
}

/* gprof's cg_tally(): one arc record of a gmon file. */
int
arcs_tally(struct profile *p, uint64_t from, uint64_t self, uint64_t count, struct diag *d)
{
	const struct symindex *x = &p->priv->index;

	return tally_at(p, from, self, count, symindex_floor(x, from), symindex_floor(x, self), d);
}

/*
 * The floors of N records' FROM and SELF, into FROM_AT and SELF_AT, each
 * stage's loads issued for every record before any is waited for: the
 * symbol index's buckets, then the addresses they name, then (asked for)
 * the facts of the symbols found.
 */
static void
floors(const struct profile *p, const uint64_t *from, const uint64_t *self, unsigned n,
    uint32_t *from_at, uint32_t *self_at)
{
	const struct symindex *x = &p->priv->index;
	const struct tally_fact *fact = p->priv->fact;
	unsigned i;

	for (i = 0; i < n; i++) {
		symindex_prefetch(x, from[i], 0);
		symindex_prefetch(x, self[i], 0);
	}
	for (i = 0; i < n; i++) {
		symindex_prefetch(x, from[i], 1);
		symindex_prefetch(x, self[i], 1);
	}
	for (i = 0; i < n; i++) {
		from_at[i] = symindex_floor(x, from[i]);
		self_at[i] = symindex_floor(x, self[i]);
		if (from_at[i] != UINT32_MAX)
			__builtin_prefetch(fact != NULL ? (const void *)&fact[from_at[i]] : &p->sym[from_at[i]]);
		if (self_at[i] != UINT32_MAX)
			__builtin_prefetch(fact != NULL ? (const void *)&fact[self_at[i]] : &p->sym[self_at[i]]);
	}
}

void
arcs_judge(const struct profile *p, const uint64_t *from, const uint64_t *self, unsigned n,
    struct arc_verdict *v)
{
	uint32_t from_at[ARCS_BATCH], self_at[ARCS_BATCH];
	unsigned i;

	floors(p, from, self, n, from_at, self_at);
	for (i = 0; i < n; i++)
		judge(p, from[i], self[i], from_at[i], self_at[i], &v[i]);
}

/* The batch's floors (floors()), then the arcs' slots when there is an index, asked for. */
static void
prefetch_batch(const struct profile *p, const struct arcqueue *q, uint32_t *from_at,
    uint32_t *self_at)
{
	const struct arcindex *ai = &p->priv->arcmap;
	unsigned i;

	floors(p, q->from, q->self, q->n, from_at, self_at);
	for (i = 0; i < q->n && ai->cap > 0; i++) {
		struct tally_fact pf, sf;

		if (from_at[i] == UINT32_MAX || self_at[i] == UINT32_MAX)
			continue;
		pf = fact_at(p, from_at[i]);
		sf = fact_at(p, self_at[i]);
		if (holds(from_at[i], &pf, q->from[i]) && holds(self_at[i], &sf, q->self[i]) &&
		    sf.callee != PF_NONE)
			__builtin_prefetch(&ai->slot[slot_of(pf.lookup, sf.callee & ~TALLY_FOLDED, ai->cap)]);
	}
}

int
arcs_flush(struct profile *p, struct diag *d)
{
	struct arcqueue *q = &p->priv->arcq;
	uint32_t from_at[ARCS_BATCH], self_at[ARCS_BATCH];
	unsigned i;
	int rc = 0;

	if (q->n == 0)
		return 0;
	prefetch_batch(p, q, from_at, self_at);
	for (i = 0; rc == 0 && i < q->n; i++)
		rc = tally_at(p, q->from[i], q->self[i], q->count[i], from_at[i], self_at[i], d);
	q->n = 0;
	return rc;
}

int
arcs_queue(struct profile *p, uint64_t from, uint64_t self, uint64_t count, struct diag *d)
{
	struct arcqueue *q = &p->priv->arcq;

	q->from[q->n] = from;
	q->self[q->n] = self;
	q->count[q->n] = count;
	return ++q->n == ARCS_BATCH ? arcs_flush(p, d) : 0;
}
