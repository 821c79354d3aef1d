/* srcspan: splits the text into spans over which libbfd's source answers cannot change. */
#include "srcspan.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "bfdtrie.h"
#include "util/mem.h"
#include "util/rsort.h"

/* A unit's range clipped to the text. */
struct piece {
	uint64_t lo, hi;
	uint32_t unit;
	enum dwcover_kind kind;
};

/* A range of a DWARF function clipped to the text; LEN is its length before. */
struct frange {
	uint64_t lo, hi, len;
	uint32_t func, unit;
};

/* Where a unit answers, and what. */
struct answer {
	uint64_t lo, hi;
	uint32_t unit, func, file, line;
};

/* A binary heap of indices into a set, the best on top. */
struct heap {
	uint32_t *v;
	size_t n;
	int (*better)(const void *set, uint32_t a, uint32_t b);
	const void *set;
};

struct build {
	const struct srcspan_in *in;
	struct srcspans *out;
	size_t unsurecap, spancap;
	struct answer *ans;
	size_t nans, anscap;
	uint64_t *pt;			/* scratch: addresses */
	size_t ptcap;
};

/* By unit, kind (the unit DIE's first) and address. */
static int
cmp_piece(const void *a, const void *b)
{
	const struct piece *x = a, *y = b;

	if (x->unit != y->unit)
		return x->unit < y->unit ? -1 : 1;
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

static int
cmp_piece_lo(const void *a, const void *b)
{
	const struct piece *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

static int
cmp_range(const void *a, const void *b)
{
	const struct dwrange *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

static int
cmp_frange(const void *a, const void *b)
{
	const struct frange *x = a, *y = b;

	if (x->unit != y->unit)
		return x->unit < y->unit ? -1 : 1;
	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* Clips [*LO, *HI) to the text; 0 if nothing is left. */
static int
clip(const struct srcspan_in *in, uint64_t *lo, uint64_t *hi)
{
	if (*lo < in->vma)
		*lo = in->vma;
	if (*hi > in->end)
		*hi = in->end;
	return *lo < *hi;
}

static int
reserve_points(struct build *B, size_t n)
{
	return mem_reserve(&B->pt, &B->ptcap, n, sizeof *B->pt);
}

static void
heap_push(struct heap *h, uint32_t x)
{
	size_t i = h->n++;

	while (i > 0 && h->better(h->set, x, h->v[(i - 1) / 2])) {
		h->v[i] = h->v[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h->v[i] = x;
}

static void
heap_pop(struct heap *h)
{
	uint32_t x = h->v[--h->n];
	size_t i = 0, c;

	while ((c = 2 * i + 1) < h->n) {
		if (c + 1 < h->n && h->better(h->set, h->v[c + 1], h->v[c]))
			c++;
		if (!h->better(h->set, h->v[c], x))
			break;
		h->v[i] = h->v[c];
		i = c;
	}
	if (h->n > 0)
		h->v[i] = x;
}

/* Merges the N pieces at P, sorted by address, into disjoint ones; their number. */
static size_t
merge(struct piece *p, size_t n)
{
	size_t i, out = 0;

	for (i = 0; i < n; i++) {
		if (out > 0 && p[i].lo <= p[out - 1].hi) {
			if (p[i].hi > p[out - 1].hi)
				p[out - 1].hi = p[i].hi;
		} else {
			p[out++] = p[i];
		}
	}
	return out;
}

/* The first of the N disjoint sorted pieces at P that ends after ADDR (N if none). */
static size_t
first_after(const struct piece *p, size_t n, uint64_t addr)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p[mid].hi <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int
add_unsure(struct build *B, uint64_t lo, uint64_t hi)
{
	struct srcspans *o = B->out;

	if (mem_reserve(&o->unsure, &B->unsurecap, o->nunsure + 1, sizeof *o->unsure))
		return -1;
	o->unsure[o->nunsure].lo = lo;
	o->unsure[o->nunsure++].hi = hi;
	return 0;
}

/* What of Q lies outside the N unit ranges at U is unsure. */
static int
outside(struct build *B, const struct piece *u, size_t n, const struct piece *q)
{
	uint64_t at = q->lo;
	size_t i;

	for (i = first_after(u, n, at); at < q->hi; i++) {
		uint64_t gap_end = i < n && u[i].lo < q->hi ? u[i].lo : q->hi;

		if (gap_end > at && add_unsure(B, at, gap_end) != 0)
			return -1;
		if (i >= n)
			break;
		at = u[i].hi;
	}
	return 0;
}

/*
 * One unit's pieces, P[0 .. N), sorted by kind and address.  libbfd knows
 * the unit DIE's ranges as soon as it reads the unit, the rest once it
 * decodes it.  The functions must lie inside the unit DIE's ranges, so
 * that no answer about a function depends on when that happens.  Lines
 * may reach beyond (the padding between functions): those addresses are
 * answered only once the unit is decoded, unsure for a lone question.
 * Leaves the unit's merged reach at P, its size in *NOUT.
 */
static int
check_unit(struct build *B, struct piece *p, size_t n, size_t *nout)
{
	size_t nu = 0, i;

	while (nu < n && p[nu].kind == DWC_UNIT)
		nu++;
	nu = merge(p, nu);
	for (i = nu; i < n; i++) {
		size_t k = first_after(p, nu, p[i].lo);

		if (p[i].kind == DWC_FUNC && (k >= nu || p[k].lo > p[i].lo || p[k].hi < p[i].hi))
			return -1;
		if (p[i].kind == DWC_LINES && (nu == 0 || outside(B, p, nu, &p[i]) != 0))
			return -1;
	}
	if (n > 0)
		qsort(p, n, sizeof *p, cmp_piece_lo);
	*nout = merge(p, n);
	return 0;
}

/* Whether any unsure address lies in [LO, HI). */
static int
unsure_in(const struct srcspans *o, uint64_t lo, uint64_t hi)
{
	size_t a = 0, b = o->nunsure;

	while (a < b) {
		size_t mid = a + (b - a) / 2;

		if (o->unsure[mid].hi <= lo)
			a = mid + 1;
		else
			b = mid;
	}
	return a < o->nunsure && o->unsure[a].lo < hi;
}

/*
 * Where units share addresses (C++ inline functions that several units
 * describe, kept once), libbfd asks them in the order it read them, which
 * is file order as long as they share only unit-DIE ranges: no unsure
 * address may be shared.  P holds the N merged reaches of all units.
 */
static int
check_shared(const struct build *B, struct piece *p, size_t n)
{
	uint64_t max_hi = 0;
	size_t i;

	if (n > 0)
		qsort(p, n, sizeof *p, cmp_piece_lo);
	for (i = 0; i < n; i++) {
		if (i > 0 && p[i].lo < max_hi &&
		    unsure_in(B->out, p[i].lo, p[i].hi < max_hi ? p[i].hi : max_hi))
			return -1;
		if (p[i].hi > max_hi)
			max_hi = p[i].hi;
	}
	return 0;
}

static int
check_units(struct build *B)
{
	const struct dwinfo *di = B->in->di;
	struct piece *p = mem_array(di->ncover + 1, sizeof *p);
	size_t n = 0, out = 0, i, k, first, nu;
	int rc = 0;

	if (p == NULL)
		return -1;
	for (i = 0; i < di->ncover; i++) {
		struct piece q = { di->cover[i].lo, di->cover[i].hi, di->cover[i].unit,
		    di->cover[i].kind };

		if (di->unit[q.unit].has_lines && clip(B->in, &q.lo, &q.hi))
			p[n++] = q;
	}
	if (n > 0)
		qsort(p, n, sizeof *p, cmp_piece);
	for (first = 0; rc == 0 && first < n; first = k) {
		for (k = first; k < n && p[k].unit == p[first].unit; k++)
			;
		if ((rc = check_unit(B, &p[first], k - first, &nu)) == 0) {
			memmove(&p[out], &p[first], nu * sizeof *p);
			out += nu;
		}
	}
	if (rc == 0) {
		if (B->out->nunsure > 0)
			qsort(B->out->unsure, B->out->nunsure, sizeof *B->out->unsure,
			    cmp_range);
		rc = check_shared(B, p, out);
	}
	free(p);
	return rc;
}

/*
 * libbfd's lookup_address_in_function_table(): the shortest range holding
 * the address, and among equals the function read later (libbfd compares
 * the addresses of its records, which it allocates in DIE order).
 */
static int
better_frange(const void *set, uint32_t a, uint32_t b)
{
	const struct frange *x = (const struct frange *)set + a, *y = (const struct frange *)set + b;

	return x->len < y->len || (x->len == y->len && x->func > y->func);
}

/* Where units share addresses, the first read answers. */
static int
better_answer(const void *set, uint32_t a, uint32_t b)
{
	return ((const struct answer *)set)[a].unit < ((const struct answer *)set)[b].unit;
}

/* The functions' ranges in the text, by unit and address. */
static int
collect_franges(const struct srcspan_in *in, struct frange **out, size_t *n)
{
	const struct dwinfo *di = in->di;
	size_t i, k;

	*n = 0;
	if (di->nrange >= UINT32_MAX || (*out = mem_array(di->nrange + 1, sizeof **out)) == NULL)
		return -1;
	for (i = 0; i < di->nfunc; i++) {
		for (k = 0; k < di->func[i].nrange; k++) {
			const struct dwrange *r = &di->range[di->func[i].range0 + k];
			struct frange f = { r->lo, r->hi, r->hi - r->lo, (uint32_t)i, di->func[i].unit };

			if (clip(in, &f.lo, &f.hi))
				(*out)[(*n)++] = f;
		}
	}
	if (*n > 0)
		qsort(*out, *n, sizeof **out, cmp_frange);
	return 0;
}

static int
add_answer(struct build *B, const struct answer *a)
{
	struct answer *last = B->nans > 0 ? &B->ans[B->nans - 1] : NULL;

	if (last != NULL && last->unit == a->unit && last->hi == a->lo && last->func == a->func &&
	    last->file == a->file && last->line == a->line) {
		last->hi = a->hi;
		return 0;
	}
	if (mem_reserve(&B->ans, &B->anscap, B->nans + 1, sizeof *B->ans))
		return -1;
	B->ans[B->nans++] = *a;
	return 0;
}

static uint64_t
min64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/*
 * Where unit U has a line or a function (libbfd then answers from it),
 * with its NF function ranges FR, sorted by start.  A sweep from event to
 * event: a line starts or ends, a range starts, the best range ends (an
 * outdone range ending changes nothing).
 */
static int
unit_answers(struct build *B, uint32_t u, const struct frange *fr, size_t nf, struct heap *h)
{
	const struct srcspan_in *in = B->in;
	const struct dwline_table *t = &in->di->unit[u].lines;
	size_t li = 0, fi = 0;
	uint64_t x = in->vma;

	h->n = 0;
	h->set = fr;
	while (x < in->end) {
		struct answer a = { x, in->end, u, SRCSPAN_NOFUNC, DWLINE_NOFILE, 0 };

		while (li < t->nspan && t->span[li].hi <= x)
			li++;
		while (fi < nf && fr[fi].lo <= x)
			heap_push(h, (uint32_t)fi++);
		while (h->n > 0 && fr[h->v[0]].hi <= x)
			heap_pop(h);
		if (li < t->nspan && t->span[li].lo <= x) {
			a.file = in->file0[u] + t->span[li].file;
			a.line = t->span[li].line;
			a.hi = min64(a.hi, t->span[li].hi);
		} else if (li < t->nspan) {
			a.hi = min64(a.hi, t->span[li].lo);
		}
		if (fi < nf)
			a.hi = min64(a.hi, fr[fi].lo);
		if (h->n > 0) {
			a.func = fr[h->v[0]].func;
			a.hi = min64(a.hi, fr[h->v[0]].hi);
		}
		if ((a.func != SRCSPAN_NOFUNC || a.file != DWLINE_NOFILE) && add_answer(B, &a) != 0)
			return -1;
		x = a.hi;
	}
	return 0;
}

static int
all_answers(struct build *B)
{
	const struct dwinfo *di = B->in->di;
	struct frange *fr;
	struct heap h = { NULL, 0, better_frange, NULL };
	size_t nf, i = 0;
	uint32_t u;
	int rc = 0;

	if (collect_franges(B->in, &fr, &nf) != 0)
		return -1;
	h.set = fr;
	if ((h.v = mem_array(nf + 1, sizeof *h.v)) == NULL) {
		free(fr);
		return -1;
	}
	for (u = 0; rc == 0 && u < di->nunit; u++) {
		size_t first = i;

		while (i < nf && fr[i].unit == u)
			i++;
		if (di->unit[u].has_lines)
			rc = unit_answers(B, u, fr + first, i - first, &h);
	}
	h.set = NULL;
	free(h.v);
	free(fr);
	return rc;
}

static int
add_span(struct build *B, const struct srcspan *sp)
{
	struct srcspans *o = B->out;

	if (mem_reserve(&o->span, &B->spancap, o->nspan + 1, sizeof *o->span))
		return -1;
	o->span[o->nspan++] = *sp;
	return 0;
}

/* The ends of the symbols' extents, sorted, in B->pt (N of them). */
static int
symbol_ends(struct build *B, size_t *n)
{
	const struct srcspan_in *in = B->in;
	size_t i;

	*n = in->nsym;
	if (reserve_points(B, *n + 1) != 0)
		return -1;
	for (i = 0; i < in->nsym; i++)
		B->pt[i] = in->sym[i].off + in->vma + in->sym[i].size;
	return rsort_u64(B->pt, *n);
}

/*
 * The spans: at each address, the answer of the first unit (in file order)
 * that has one, cut where a symbol's extent starts or ends.  A sweep over
 * the answers by start (a stable sort keeps units in order among equals),
 * from event to event.
 */
static int
overlay(struct build *B)
{
	const struct srcspan_in *in = B->in;
	struct heap h = { NULL, 0, better_answer, NULL };
	size_t ai = 0, si = 0, ei = 0, nend;
	uint64_t x = in->vma;
	int rc = 0;

	if (rsort_records(B->ans, B->nans, sizeof *B->ans, offsetof(struct answer, lo)) != 0 ||
	    symbol_ends(B, &nend) != 0 || (h.v = mem_array(B->nans + 1, sizeof *h.v)) == NULL)
		return -1;
	h.set = B->ans;
	while (rc == 0 && x < in->end) {
		struct srcspan sp = { x, SRCSPAN_NOFUNC, DWLINE_NOFILE, 0 };
		uint64_t next = in->end;

		while (ai < B->nans && B->ans[ai].lo <= x)
			heap_push(&h, (uint32_t)ai++);
		while (h.n > 0 && B->ans[h.v[0]].hi <= x)
			heap_pop(&h);
		while (si < in->nsym && in->sym[si].off + in->vma <= x)
			si++;
		while (ei < nend && B->pt[ei] <= x)
			ei++;
		if (h.n > 0) {
			const struct answer *a = &B->ans[h.v[0]];

			sp.func = a->func;
			sp.file = a->file;
			sp.line = a->line;
			next = min64(next, a->hi);
		}
		if (ai < B->nans)
			next = min64(next, B->ans[ai].lo);
		if (si < in->nsym)
			next = min64(next, in->sym[si].off + in->vma);
		if (ei < nend)
			next = min64(next, B->pt[ei]);
		rc = add_span(B, &sp);
		x = next;
	}
	free(h.v);
	return rc;
}

void
srcspan_release(struct srcspans *s)
{
	free(s->span);
	free(s->unsure);
	memset(s, 0, sizeof *s);
}

/*
 * The bytes libbfd's trie loses (bfdtrie.h) get no answer: each becomes a
 * span of its own without a function or a line, and the span after it
 * answers as the one it was cut from.  0, or -1 (memory, or a trie whose
 * shape depends on the order libbfd decodes the units in).
 */
static int
punch_holes(const struct srcspan_in *in, struct srcspans *out)
{
	struct srcspan *v;
	uint64_t *hole;
	size_t nhole, n = 0, i, k = 0;

	if (bfdtrie_holes(in->di, in->vma, in->end, &hole, &nhole) != 0)
		return -1;
	if (nhole == 0)
		return 0;
	if ((v = mem_array(out->nspan + 2 * nhole, sizeof *v)) == NULL) {
		free(hole);
		return -1;
	}
	for (i = 0; i < out->nspan; i++) {
		uint64_t next = i + 1 < out->nspan ? out->span[i + 1].lo : in->end;

		v[n++] = out->span[i];
		for (; k < nhole && hole[k] < next; k++) {
			if (hole[k] < out->span[i].lo)
				continue;
			if (v[n - 1].lo == hole[k])
				n--;	/* the span began at the hole */
			v[n].lo = hole[k];
			v[n].func = SRCSPAN_NOFUNC;
			v[n].file = DWLINE_NOFILE;
			v[n++].line = 0;
			if (hole[k] + 1 < next) {
				v[n] = out->span[i];
				v[n++].lo = hole[k] + 1;
			}
		}
	}
	free(out->span);
	out->span = v;
	out->nspan = n;
	free(hole);
	return 0;
}

int
srcspan_build(struct srcspans *out, const struct srcspan_in *in)
{
	struct build B;
	int rc;

	memset(out, 0, sizeof *out);
	memset(&B, 0, sizeof B);
	B.in = in;
	B.out = out;
	rc = check_units(&B);
	if (rc == 0)
		rc = all_answers(&B);
	if (rc == 0 && B.nans >= UINT32_MAX)
		rc = -1;
	if (rc == 0)
		rc = overlay(&B);
	if (rc == 0)
		rc = punch_holes(in, out);
	free(B.ans);
	free(B.pt);
	if (rc != 0)
		srcspan_release(out);
	return rc;
}
