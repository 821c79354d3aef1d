/* symindex: finds the symbol at an address in O(1), for arcs and samples by the million. */
#ifndef TGPROF_SYMINDEX_H
#define TGPROF_SYMINDEX_H

#include <stdint.h>

/*
 * The span of symbol addresses cut into power-of-two buckets, about one
 * symbol per bucket; bucket[k] is the first symbol at or above the
 * bucket's start, so a lookup searches one bucket.
 */
struct symindex {
	uint64_t *addr;		/* strictly increasing start addresses; owned */
	uint32_t n;
	uint32_t *bucket;	/* owned */
	uint32_t nbucket;
	int shift;
};

/* Indexes the N strictly increasing addresses at ADDR (copied); 0 or -1. */
int symindex_build(struct symindex *x, const uint64_t *addr, uint32_t n);
void symindex_release(struct symindex *x);

/*
 * Asks the cache for what a lookup of ADDR reads: its bucket (DEEP 0),
 * then, the bucket read, the first address it names (DEEP 1).  A hint
 * for lookups by the million: no effect on results.
 */
void symindex_prefetch(const struct symindex *x, uint64_t addr, int deep);

/* The last entry starting at or before ADDR, or UINT32_MAX if none. */
uint32_t symindex_floor(const struct symindex *x, uint64_t addr);

#endif
