/* symtab: address-sorted symbol tables with GNU gprof's de-duplication and lookup rules. */
#include "symtab.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "util/mem.h"
#include "util/msort.h"
#include "util/rsort.h"

static int
cmp_addr(const void *a, const void *b, void *ctx)
{
	const struct symtab_ent *ent = ctx;
	const struct symtab_ent *l = &ent[*(const uint32_t *)a];
	const struct symtab_ent *r = &ent[*(const uint32_t *)b];

	if (l->addr != r->addr)
		return l->addr > r->addr ? 1 : -1;
	if (l->is_func != r->is_func)
		return r->is_func - l->is_func;
	return l->is_static - r->is_static;
}

/* gprof keeps SRC instead of the kept entry D at the same address when... */
static int
prefer(const struct symtab_ent *src, const struct symtab_ent *d)
{
	if (!src->is_static && d->is_static)
		return 1;
	if (src->is_static != d->is_static)
		return 0;
	if (src->is_func && !d->is_func)
		return 1;
	if (src->is_func != d->is_func)
		return 0;
	if (src->name[0] != '_' && d->name[0] == '_')
		return 1;
	return src->name[0] == '_' && d->name[0] == '_' &&
	    src->name[1] != '_' && d->name[1] == '_';
}

struct keyed {
	uint64_t key;
	uint32_t id, pad;
};

/*
 * IDX[0..N) in cmp_addr()'s order, stably, by one radix sort of the
 * address and the two flags as one key: 0, 1 where an address leaves no
 * room for the flags (above 48 bits: then msort_ids() with cmp_addr()),
 * -1 if out of memory.
 */
static int
radix_ids(const struct symtab_ent *ent, uint32_t *idx, uint32_t n)
{
	struct keyed *k;
	uint32_t i;

	for (i = 0; i < n; i++)
		if (ent[i].addr >> 48 != 0)
			return 1;
	if ((k = mem_array(n, sizeof *k)) == NULL)
		return -1;
	for (i = 0; i < n; i++) {
		k[i].key = ent[i].addr << 16 | (uint64_t)(255 - ent[i].is_func) << 8 | ent[i].is_static;
		k[i].id = i;
	}
	if (rsort_records(k, n, sizeof *k, offsetof(struct keyed, key)) != 0) {
		free(k);
		return -1;
	}
	for (i = 0; i < n; i++)
		idx[i] = k[i].id;
	free(k);
	return 0;
}

/* Sorted copy of ENT[0..N) (gprof sorts in place; the order is the same). */
static struct symtab_ent *
sorted_copy(const struct symtab_ent *ent, uint32_t n)
{
	uint32_t *idx = mem_array(n, sizeof *idx), i;
	struct symtab_ent *out = mem_array(n, sizeof *out);
	int rc;

	if (idx == NULL || out == NULL) {
		free(idx);
		free(out);
		return NULL;
	}
	for (i = 0; i < n; i++)
		idx[i] = i;
	if ((rc = radix_ids(ent, idx, n)) == 1)
		rc = msort_ids(idx, n, cmp_addr, (void *)ent);
	if (rc != 0) {
		free(idx);
		free(out);
		return NULL;
	}
	for (i = 0; i < n; i++)
		out[i] = ent[idx[i]];
	free(idx);
	return out;
}

int
symtab_finalize(struct symtab *tab, struct symtab_ent *ent, uint32_t n, uint64_t text_end)
{
	struct symtab_ent *s, *src, *dst;
	uint64_t prev_addr;

	memset(tab, 0, sizeof *tab);
	if (n == 0) {
		tab->ent = ent;
		return 0;
	}
	s = sorted_copy(ent, n);
	free(ent);
	if (s == NULL)
		return -1;
	prev_addr = s[0].addr - 1;
	for (src = dst = s; src < s + n; src++) {
		if (src->addr == prev_addr) {
			if (prefer(src, &dst[-1]))
				dst[-1] = *src;
			continue;
		}
		if (dst > s && dst[-1].end_addr == 0)
			dst[-1].end_addr = src->addr - 1;
		if (src->end_addr == 0 || src->addr <= src->end_addr) {
			*dst++ = *src;
			prev_addr = src->addr;
		}
	}
	if (dst > s && dst[-1].end_addr == 0)
		dst[-1].end_addr = text_end;
	tab->ent = s;
	tab->len = (uint32_t)(dst - s);
	if (tab->len < n) {
		tab->has_after = 1;
		tab->after_addr = s[tab->len].addr;
	}
	return 0;
}

void
symtab_release(struct symtab *tab)
{
	free(tab->ent);
	memset(tab, 0, sizeof *tab);
}

long
symtab_lookup(const struct symtab_ent *ent, uint32_t len, uint64_t addr)
{
	long low, high, mid = -1;

	if (len == 0)
		return -1;
	for (low = 0, high = (long)len - 1; low != high;) {
		mid = (high + low) / 2;
		if (ent[mid].addr <= addr && ent[mid + 1].addr > addr)
			return addr > ent[mid].end_addr ? -1 : mid;
		if (ent[mid].addr > addr)
			high = mid;
		else
			low = mid + 1;
	}
	/*
	 * gprof checks sym[mid + 1] with the last probed MID (-1 if the loop
	 * never ran, so sym[0] for a one-entry table).
	 */
	if (ent[mid + 1].addr <= addr)
		return addr > ent[mid + 1].end_addr ? -1 : mid + 1;
	return -1;
}
