/* msort: the stable merge sort of glibc's qsort, so ties come out in gprof's order. */
#ifndef TGPROF_MSORT_H
#define TGPROF_MSORT_H

#include <stddef.h>
#include <stdint.h>

/* Compares two elements; CTX is passed through unchanged. */
typedef int (*msort_cmp)(const void *a, const void *b, void *ctx);

/*
 * Sorts the N uint32_t ids at BASE exactly as glibc 2.36's qsort does for
 * gprof (top-down merge sort, left half n/2, the left element taken when
 * cmp(left, right) <= 0).  For a consistent comparator this is any stable
 * sort; for gprof's inconsistent ones (two cycle headers of equal time both
 * "first") it reproduces gprof's output.  Returns 0, or -1 when the scratch
 * buffer cannot be allocated (BASE is then unchanged).
 */
int msort_ids(uint32_t *base, size_t n, msort_cmp cmp, void *ctx);

/* The same with the caller's scratch space TMP (N elements). */
void msort_ids_tmp(uint32_t *base, size_t n, uint32_t *tmp, msort_cmp cmp, void *ctx);

#endif
