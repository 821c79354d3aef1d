/* arcsort: arc records merged into arcs by one radix sort of their keys, instead of an index probe each. */
#include "arcsort.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "util/mem.h"

/*
 * 256 buckets a pass: a pass over more keys than the caches hold writes
 * to as many places at once as there are buckets, and 2048 (11 bits, a
 * pass fewer) cost more in misses of the address translation than the
 * pass saves (the merge at a million functions 0.081 -> 0.060 s).
 */
#define DIGIT_BITS 8
#define DIGITS (1u << DIGIT_BITS)
#define MAX_PASSES ((64 + DIGIT_BITS - 1) / DIGIT_BITS)

/* Bits to hold every number below N (N >= 1). */
static unsigned
bits_for(uint64_t n)
{
	unsigned b = 1;

	while (b < 64 && (n - 1) >> b != 0)
		b++;
	return b;
}

int
arcs_sort_begin(struct profile *p, size_t nrec)
{
	struct pf_private *pv = p->priv;
	unsigned idbits = bits_for((uint64_t)p->nsyms + 1), seqbits = bits_for((uint64_t)nrec + 2);

	if (2 * idbits + seqbits > 64 || nrec >= PF_NONE - 1)
		return 0;
	pv->arckey = mem_unfaulted(nrec * sizeof *pv->arckey);
	if (pv->arckey == NULL)
		return -1;
	pv->arckeycap = nrec;
	pv->idbits = idbits;
	pv->seqbits = seqbits;
	return 1;
}

/*
 * Sorts the N keys of K by their bits [LO, HI), stably (least significant
 * digit first), through TMP; returns the array holding the result.
 */
static uint64_t *
radix_sort(uint64_t *k, uint64_t *tmp, size_t n, unsigned lo, unsigned hi)
{
	unsigned npass = (hi - lo + DIGIT_BITS - 1) / DIGIT_BITS, d;
	size_t (*count)[DIGITS] = mem_calloc(MAX_PASSES, sizeof *count), i;

	if (count == NULL)
		return NULL;
	for (i = 0; i < n; i++)
		for (d = 0; d < npass; d++)
			count[d][(k[i] >> (lo + d * DIGIT_BITS)) & (DIGITS - 1)]++;
	for (d = 0; d < npass; d++) {
		size_t sum = 0, c, b;
		unsigned shift = lo + d * DIGIT_BITS;
		uint64_t *t;

		for (b = 0; b < DIGITS; b++) {
			if (count[d][b] == n)
				break;	/* one digit for all: the pass changes nothing */
			c = count[d][b];
			count[d][b] = sum;
			sum += c;
		}
		if (b < DIGITS)
			continue;
		for (i = 0; i < n; i++)
			tmp[count[d][(k[i] >> shift) & (DIGITS - 1)]++] = k[i];
		t = k;
		k = tmp;
		tmp = t;
	}
	free(count);
	return k;
}

/* Marks each record that repeats an earlier one's (parent, child): its next_child is that record's number. */
static void
mark_repeats(struct profile *p, const uint64_t *sorted, size_t n)
{
	unsigned sb = p->priv->seqbits;
	uint64_t mask = ((uint64_t)1 << sb) - 1;
	uint32_t first = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		uint32_t seq = (uint32_t)(sorted[i] & mask);

		if (i > 0 && sorted[i] >> sb == sorted[i - 1] >> sb)
			p->arc[seq].next_child = first;
		else
			first = seq;
	}
}

/* How far ahead the symbols' list heads are asked of the cache. */
#define AHEAD 16

/*
 * The provisional arcs, in record order, made arcs in place (an arc's
 * number is never above its first record's): NEWID maps a record to its
 * arc.  Linked as arcs_add() links them.
 */
static void
compact(struct profile *p, uint32_t *newid, size_t n)
{
	uint32_t out = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		struct pf_arc x = p->arc[i], *a;

		if (i + AHEAD < n) {
			__builtin_prefetch(&p->sym[p->arc[i + AHEAD].parent].children, 1);
			__builtin_prefetch(&p->sym[p->arc[i + AHEAD].child].parents, 1);
		}
		if (x.next_child != PF_NONE) {
			p->arc[newid[x.next_child]].count += x.count;
			continue;
		}
		newid[i] = out;
		a = &p->arc[out];
		*a = x;
		a->next_child = p->sym[x.parent].children;
		p->sym[x.parent].children = out;
		a->next_parent = p->sym[x.child].parents;
		p->sym[x.child].parents = out;
		out++;
	}
	p->narcs = out;
}

int
arcs_settle(struct profile *p)
{
	struct pf_private *pv = p->priv;
	size_t n = p->narcs;
	uint64_t *tmp, *sorted;

	if (pv->arckey == NULL)
		return 0;
	if ((tmp = mem_unfaulted((n ? n : 1) * sizeof *tmp)) == NULL)
		return -1;
	sorted = radix_sort(pv->arckey, tmp, n, pv->seqbits, pv->seqbits + 2 * pv->idbits);
	if (sorted == NULL) {
		free(tmp);
		return -1;
	}
	mark_repeats(p, sorted, n);
	/* Both buffers are free now: one holds the records' arc numbers. */
	compact(p, (uint32_t *)(void *)tmp, n);
	free(tmp);
	free(pv->arckey);
	pv->arckey = NULL;
	pv->arckeycap = 0;
	return 0;
}
