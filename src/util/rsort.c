/* rsort: radix sorts of 64-bit keys (addresses), in linear time. */
#include "rsort.h"

#include <stdlib.h>
#include <string.h>

#include "mem.h"

#define DIGIT_BITS 8		/* small counts: cheap for the many short arrays too */
#define DIGITS ((64 + DIGIT_BITS - 1) / DIGIT_BITS)
#define BUCKETS (1u << DIGIT_BITS)

/*
 * Least-significant-digit radix sort of keys KEY(i) for i < N, moving the
 * SIZE-byte records of SRC through DST.  Digits in which every key agrees
 * (the high bits of addresses) cost one counting pass and no move.
 * Returns where the sorted records are: SRC or DST.
 */
static void *
lsd(void *src, void *dst, size_t n, size_t size, size_t key_off)
{
	static const uint64_t mask = BUCKETS - 1;
	size_t (*count)[BUCKETS] = calloc(DIGITS, sizeof *count);
	size_t i, d;

	if (count == NULL)
		return NULL;
	for (i = 0; i < n; i++) {
		uint64_t key;

		memcpy(&key, (char *)src + i * size + key_off, sizeof key);
		for (d = 0; d < DIGITS; d++)
			count[d][(key >> (d * DIGIT_BITS)) & mask]++;
	}
	for (d = 0; d < DIGITS; d++) {
		size_t sum = 0, b;
		void *t;

		for (b = 0; b < BUCKETS && count[d][b] != n; b++)
			;
		if (b < BUCKETS)
			continue;	/* one digit value for all: nothing moves */
		for (b = 0; b < BUCKETS; b++) {
			size_t c = count[d][b];

			count[d][b] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++) {
			uint64_t key;

			memcpy(&key, (char *)src + i * size + key_off, sizeof key);
			memcpy((char *)dst + count[d][(key >> (d * DIGIT_BITS)) & mask]++ * size,
			    (char *)src + i * size, size);
		}
		t = src;
		src = dst;
		dst = t;
	}
	free(count);
	return src;
}

/* Insertion sort, stable: for a few records it beats counting. */
static void
insertion(char *base, size_t n, size_t size, size_t key_off)
{
	char rec[64];
	size_t i, j;

	for (i = 1; i < n; i++) {
		uint64_t key, prev;

		memcpy(&key, base + i * size + key_off, sizeof key);
		memcpy(rec, base + i * size, size);
		for (j = i; j > 0; j--) {
			memcpy(&prev, base + (j - 1) * size + key_off, sizeof prev);
			if (prev <= key)
				break;
			memcpy(base + j * size, base + (j - 1) * size, size);
		}
		memcpy(base + j * size, rec, size);
	}
}

int
rsort_records(void *base, size_t n, size_t size, size_t key_off)
{
	void *tmp, *sorted;

	if (n < 32 && size <= 64) {
		insertion(base, n, size, key_off);
		return 0;
	}
	if ((tmp = mem_array(n, size)) == NULL)
		return -1;
	sorted = lsd(base, tmp, n, size, key_off);
	if (sorted == tmp)
		memcpy(base, tmp, n * size);
	free(tmp);
	return sorted != NULL ? 0 : -1;
}

uint64_t
rsort_down_key(double v)
{
	uint64_t u;

	v += 0.0;	/* -0.0 becomes 0.0: they are equal */
	memcpy(&u, &v, sizeof u);
	u = u >> 63 ? ~u : u | (uint64_t)1 << 63;
	return ~u;
}

int
rsort_u64(uint64_t *k, size_t n)
{
	return rsort_records(k, n, sizeof *k, 0);
}

/* The keys of K[0..N) at or above bit SHIFT: by the digit there, then those below it. */
static void
msd(uint64_t *k, size_t n, unsigned shift)
{
	size_t count[BUCKETS] = { 0 }, next[BUCKETS], end[BUCKETS], i, b, sum = 0;

	if (n < 32) {
		insertion((char *)k, n, sizeof *k, 0);
		return;
	}
	for (i = 0; i < n; i++)
		count[(k[i] >> shift) & (BUCKETS - 1)]++;
	for (b = 0; b < BUCKETS; b++) {
		next[b] = sum;
		sum += count[b];
		end[b] = sum;
	}
	/* Each key swapped into its bucket's next place until the bucket is full. */
	for (b = 0; b < BUCKETS; b++) {
		while (next[b] < end[b]) {
			uint64_t v = k[next[b]];
			size_t d = (v >> shift) & (BUCKETS - 1);

			if (d == b) {
				next[b]++;
				continue;
			}
			k[next[b]] = k[next[d]];
			k[next[d]++] = v;
		}
	}
	if (shift == 0)
		return;
	for (b = 0, sum = 0; b < BUCKETS; sum += count[b++])
		if (count[b] > 1)
			msd(k + sum, count[b], shift - DIGIT_BITS);
}

void
rsort_u64_inplace(uint64_t *k, size_t n, unsigned bits)
{
	if (bits == 0 || n < 2)
		return;
	msd(k, n, (bits - 1) / DIGIT_BITS * DIGIT_BITS);
}
