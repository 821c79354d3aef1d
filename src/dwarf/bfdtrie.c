/* bfdtrie: the text bytes libbfd 2.40's address trie cannot find, so that it answers nothing there. */
#include "bfdtrie.h"

#include <stdlib.h>

#include "util/mem.h"

#define LEAF_SIZE 16		/* libbfd's TRIE_LEAF_SIZE */
#define NODE 256		/* the deepest interior node: its children are single bytes */

/* A range a leaf holds. */
struct held {
	uint64_t lo, hi;
	uint32_t unit;
};

/* libbfd's ranges_overlap(): overlapping or touching. */
static int
overlap(uint64_t lo1, uint64_t hi1, uint64_t lo2, uint64_t hi2)
{
	if (lo1 == lo2 || hi1 == hi2)
		return 1;
	return lo1 < lo2 ? lo2 <= hi1 : lo1 <= hi2;
}

/*
 * A leaf's insertion: merged into the first range of the same unit it
 * overlaps, else added.  Returns the number held (at most LEAF_SIZE + 1:
 * one more is all that matters).
 */
static size_t
hold(struct held *h, size_t n, const struct dwcover *c)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (h[i].unit == c->unit && overlap(c->lo, c->hi, h[i].lo, h[i].hi)) {
			h[i].lo = c->lo < h[i].lo ? c->lo : h[i].lo;
			h[i].hi = c->hi > h[i].hi ? c->hi : h[i].hi;
			return n;
		}
	}
	if (n <= LEAF_SIZE) {
		h[n].lo = c->lo;
		h[n].hi = c->hi;
		h[n].unit = c->unit;
		n++;
	}
	return n;
}

/*
 * The fate of the node at P: the covers COV[IDX[0..K)] reach it, IDX in
 * libbfd's insertion order.  2: interior from the start, 0: a leaf for
 * good, 1: it depends.
 */
static int
node_fate(const struct dwinfo *di, const uint32_t *idx, size_t k)
{
	struct held h[LEAF_SIZE + 1];
	size_t n = 0, i;
	int pass;

	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < k && n <= LEAF_SIZE; i++)
			if ((di->cover[idx[i]].kind == DWC_UNIT) == (pass == 0))
				n = hold(h, n, &di->cover[idx[i]]);
		if (n > LEAF_SIZE)
			return pass == 0 ? 2 : 1;
	}
	return 0;
}

static int
cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* The covers by their low end, for the sweep. */
static int
cmp_lo(const void *a, const void *b, void *ctx)
{
	const struct dwcover *c = ctx;
	uint64_t x = c[*(const uint32_t *)a].lo, y = c[*(const uint32_t *)b].lo;

	return x < y ? -1 : x > y;
}

struct sweep {
	const struct dwinfo *di;
	uint32_t *by_lo;	/* covers by low end */
	uint32_t *active;	/* those reaching the node, in insertion order once sorted */
	size_t next, nactive;
};

/* The covers that reach [P, P + NODE): ACTIVE, sorted by insertion order. */
static void
reach(struct sweep *s, uint64_t p)
{
	const struct dwcover *c = s->di->cover;
	size_t i, k = 0;

	for (i = 0; i < s->nactive; i++)
		if (c[s->active[i]].hi > p)
			s->active[k++] = s->active[i];
	while (s->next < s->di->ncover && c[s->by_lo[s->next]].lo < p + NODE) {
		if (c[s->by_lo[s->next]].hi > p)
			s->active[k++] = s->by_lo[s->next];
		s->next++;
	}
	s->nactive = k;
	qsort(s->active, k, sizeof *s->active, cmp_u32);
}

int
bfdtrie_holes(const struct dwinfo *di, uint64_t vma, uint64_t end, uint64_t **out, size_t *n)
{
	struct sweep s = { di, NULL, NULL, 0, 0 };
	uint64_t p;
	size_t i, cap = 0;
	int rc = 0, fate;

	*out = NULL;
	*n = 0;
	s.by_lo = mem_array(di->ncover + 1, sizeof *s.by_lo);
	s.active = mem_array(di->ncover + 1, sizeof *s.active);
	if (s.by_lo == NULL || s.active == NULL)
		rc = -1;
	for (i = 0; rc == 0 && i < di->ncover; i++)
		s.by_lo[i] = (uint32_t)i;
	if (rc == 0)
		qsort_r(s.by_lo, di->ncover, sizeof *s.by_lo, cmp_lo, di->cover);
	for (p = vma & ~(uint64_t)(NODE - 1); rc == 0 && p < end; p += NODE) {
		reach(&s, p);
		if (s.nactive <= LEAF_SIZE || (fate = node_fate(di, s.active, s.nactive)) == 0)
			continue;
		if (fate == 1)
			rc = 1;
		else if (p + NODE - 1 >= vma && p + NODE - 1 < end &&
		    mem_reserve(out, &cap, *n + 1, sizeof **out) == 0)
			(*out)[(*n)++] = p + NODE - 1;
		else if (p + NODE - 1 >= vma && p + NODE - 1 < end)
			rc = -1;
	}
	free(s.by_lo);
	free(s.active);
	if (rc != 0) {
		free(*out);
		*out = NULL;
		*n = 0;
	}
	return rc;
}
