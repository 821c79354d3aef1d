/* rsort: radix sorts of 64-bit keys (addresses), in linear time. */
#ifndef TGPROF_RSORT_H
#define TGPROF_RSORT_H

#include <stddef.h>
#include <stdint.h>

/* Sorts the N keys at K in place; 0, or -1 when scratch memory runs out (K unchanged). */
int rsort_u64(uint64_t *k, size_t n);

/*
 * Sorts the N records of SIZE bytes at BASE by the 64-bit key at byte
 * offset KEY_OFF of each, stably (records with equal keys keep their
 * order).  0, or -1 when scratch memory runs out (BASE unchanged).
 */
int rsort_records(void *base, size_t n, size_t size, size_t key_off);

/*
 * A double as a key that sorts as the doubles do, the greatest first
 * (-0.0 and 0.0 alike); a NaN, which compares equal to every number,
 * has no such key.
 */
uint64_t rsort_down_key(double v);

/*
 * Sorts the N keys at K in place, without scratch memory (most
 * significant digit first), every key below 2^BITS (BITS <= 64).  Equal
 * keys cannot be told apart, so no stability is needed.
 */
void rsort_u64_inplace(uint64_t *k, size_t n, unsigned bits);

#endif
