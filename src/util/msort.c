/* msort: the stable merge sort of glibc's qsort, so ties come out in gprof's order. */
#include "msort.h"

#include <stdlib.h>
#include <string.h>

/*
 * Bottom-up passes would merge different halves than glibc does, so keep
 * the top-down split.  Recursion depth is log2(n), never input-shaped.
 */
static void
merge_sort(uint32_t *b, uint32_t *tmp, size_t n, msort_cmp cmp, void *ctx)
{
	size_t n1, n2, k;
	uint32_t *b1, *b2, *out;

	if (n <= 1)
		return;
	n1 = n / 2;
	n2 = n - n1;
	b1 = b;
	b2 = b + n1;
	merge_sort(b1, tmp, n1, cmp, ctx);
	merge_sort(b2, tmp, n2, cmp, ctx);

	out = tmp;
	while (n1 > 0 && n2 > 0) {
		if (cmp(b1, b2, ctx) <= 0) {
			*out++ = *b1++;
			n1--;
		} else {
			*out++ = *b2++;
			n2--;
		}
	}
	if (n1 > 0)
		memcpy(out, b1, n1 * sizeof *out);
	k = n - n2;
	memcpy(b, tmp, k * sizeof *b);
}

void
msort_ids_tmp(uint32_t *base, size_t n, uint32_t *tmp, msort_cmp cmp, void *ctx)
{
	merge_sort(base, tmp, n, cmp, ctx);
}

int
msort_ids(uint32_t *base, size_t n, msort_cmp cmp, void *ctx)
{
	uint32_t *tmp;

	if (n <= 1)
		return 0;
	tmp = malloc(n * sizeof *tmp);
	if (tmp == NULL)
		return -1;
	merge_sort(base, tmp, n, cmp, ctx);
	free(tmp);
	return 0;
}
