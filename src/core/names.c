/* names: the symbols' names in strcmp()'s order (name_order, name_rank), by an MSD radix sort. */
#include "names.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "util/msort.h"
#include "util/rsort.h"

/* Runs of names this short or shorter are sorted by comparison. */
#define NAME_RUN_MIN 16

/* The 8 bytes of NAME from OFF (NAME is at least OFF long), big-endian, zeros after its end; *ENDED if it ends there. */
static uint64_t
name_chunk(const char *name, size_t off, int *ended)
{
	uint64_t k = 0;
	int i;

	*ended = 0;
	for (i = 0; i < 8; i++) {
		unsigned char c = *ended ? 0 : (unsigned char)name[off + (size_t)i];

		*ended |= c == 0;
		k = k << 8 | c;
	}
	return k;
}

struct name_key {
	uint64_t key;
	uint32_t id, ended;
};

/* How many names ahead each one is asked for: they are all over memory. */
#define NAME_AHEAD 16

/* msort_ids()'s comparison of names from byte OFF on (ctx: struct name_ctx). */
struct name_ctx {
	const struct pf_sym *s;
	size_t off;
};

static int
cmp_name_from(const void *a, const void *b, void *ctx)
{
	const struct name_ctx *c = ctx;

	return strcmp(c->s[*(const uint32_t *)a].name + c->off, c->s[*(const uint32_t *)b].name + c->off);
}

/*
 * IDS[0..N), names equal in their first OFF bytes and in id order, sorted
 * by name as a stable strcmp() sort would (equal names in id order): by a
 * radix sort of the next 8 bytes, then each run that agrees on them and
 * goes on, from OFF + 8 (MSD radix).  K: the same N names' records (their
 * IDs), in IDS' order.  SAME[i] (0 on entry) set to 1 where the name
 * sorted at i is the one before it again: found as the sort goes, where
 * comparing each name with the one before afterwards reads them all at
 * random once more (long shared prefixes: C++ names).  0 or -1.
 */
static int
sort_names_from(const struct pf_sym *s, uint32_t *ids, uint32_t n, size_t off, struct name_key *k,
    uint8_t *same)
{
	struct name_ctx c = { s, off };
	uint32_t i, j;
	int ended;

	if (n <= NAME_RUN_MIN) {
		if (msort_ids(ids, n, cmp_name_from, &c) != 0)
			return -1;
		for (i = 1; i < n; i++)
			same[i] = strcmp(s[ids[i - 1]].name + off, s[ids[i]].name + off) == 0;
		return 0;
	}
	for (i = 0; i < n; i++) {
		if (i + 2 * NAME_AHEAD < n)
			__builtin_prefetch(&s[k[i + 2 * NAME_AHEAD].id].name);
		if (i + NAME_AHEAD < n)
			__builtin_prefetch(s[k[i + NAME_AHEAD].id].name + off);
		k[i].key = name_chunk(s[k[i].id].name, off, &ended);
		k[i].ended = (uint32_t)ended;
	}
	if (rsort_records(k, n, sizeof *k, offsetof(struct name_key, key)) != 0)
		return -1;
	for (i = 0; i < n; i++)
		ids[i] = k[i].id;
	for (i = 0; i < n; i = j) {
		int more = !k[i].ended;

		for (j = i + 1; j < n && k[j].key == k[i].key; j++)
			same[j] = !more;	/* (ended alike: the same name) */
		if (more && j - i > 1 && sort_names_from(s, ids + i, j - i, off + 8, k + i, same + i) != 0)
			return -1;
	}
	return 0;
}

/*
 * The orders break ties with strcmp() on raw names; one sort by name
 * gives every symbol a rank that compares the same, cheaply.
 */
int
names_sort(struct profile *p)
{
	struct name_key *k = mem_array((size_t)p->nsyms + 1, sizeof *k);
	uint8_t *same = mem_calloc((size_t)p->nsyms + 1, 1);
	uint32_t i, rank = 0;
	int rc;

	p->name_rank = mem_array(p->nsyms, sizeof *p->name_rank);
	p->name_order = mem_array(p->nsyms, sizeof *p->name_order);
	if (k == NULL || same == NULL || p->name_rank == NULL || p->name_order == NULL) {
		free(k);
		free(same);
		return -1;
	}
	for (i = 0; i < p->nsyms; i++)
		p->name_order[i] = k[i].id = i;
	rc = sort_names_from(p->sym, p->name_order, p->nsyms, 0, k, same);
	free(k);
	for (i = 0; rc == 0 && i < p->nsyms; i++) {
		rank += i > 0 && !same[i];
		p->name_rank[p->name_order[i]] = rank;
	}
	free(same);
	return rc != 0 ? -1 : 0;
}
