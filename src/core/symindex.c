/* symindex: finds the symbol at an address in O(1), for arcs and samples by the million. */
#include "symindex.h"

#include <stdlib.h>
#include <string.h>

#include "util/mem.h"

int
symindex_build(struct symindex *x, const uint64_t *addr, uint32_t n)
{
	uint64_t span = n ? addr[n - 1] - addr[0] : 0;
	uint32_t k, i = 0;

	memset(x, 0, sizeof *x);
	while (x->shift < 63 && (span >> x->shift) >= (n ? n : 1))
		x->shift++;
	x->nbucket = (uint32_t)(span >> x->shift) + 2;
	x->addr = mem_array(n, sizeof *x->addr);
	x->bucket = mem_array(x->nbucket, sizeof *x->bucket);
	if (x->addr == NULL || x->bucket == NULL) {
		symindex_release(x);
		return -1;
	}
	memcpy(x->addr, addr, (size_t)n * sizeof *addr);
	x->n = n;
	for (k = 0; k < x->nbucket; k++) {
		uint64_t start = (uint64_t)k << x->shift;

		while (i < n && addr[i] - addr[0] < start)
			i++;
		x->bucket[k] = i;
	}
	return 0;
}

void
symindex_release(struct symindex *x)
{
	free(x->addr);
	free(x->bucket);
	memset(x, 0, sizeof *x);
}

void
symindex_prefetch(const struct symindex *x, uint64_t addr, int deep)
{
	uint64_t k;

	if (x->n == 0 || addr < x->addr[0] || (k = (addr - x->addr[0]) >> x->shift) + 1 >= x->nbucket)
		return;
	if (!deep)
		__builtin_prefetch(&x->bucket[k]);
	else if (x->bucket[k] < x->n)
		__builtin_prefetch(&x->addr[x->bucket[k]]);
}

uint32_t
symindex_floor(const struct symindex *x, uint64_t addr)
{
	uint32_t lo, hi;
	uint64_t k;

	if (x->n == 0 || addr < x->addr[0])
		return UINT32_MAX;
	k = (addr - x->addr[0]) >> x->shift;
	if (k + 1 >= x->nbucket) {
		lo = x->bucket[x->nbucket - 1];
		hi = x->n;
	} else {
		lo = x->bucket[k];
		hi = x->bucket[k + 1];
	}
	/* The first entry above ADDR is in [lo, hi]; the answer is just before it. */
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (x->addr[mid] <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo - 1;
}
