/* mem: overflow-checked allocation helpers that report failure instead of exiting. */
#ifndef TGPROF_MEM_H
#define TGPROF_MEM_H

#include <stddef.h>

/*
 * The allocation functions return memory that will be used whole: large
 * blocks are faulted in at once (mem_populate()), far cheaper than page
 * by page.  mem_reserve() does not, as its room may stay unused.
 */
void mem_populate(void *p, size_t bytes);

/*
 * For a large block that may stay partly unused: its pages come 2 MiB at a
 * time (transparent huge pages) as they are first touched, where the
 * kernel offers them; none of it is faulted in now.
 */
void mem_huge(void *p, size_t bytes);

/*
 * Asks the cache for the line at P ahead of reading it: a hint, no
 * effect on results.  GCC 12 finds a function that does nothing but
 * prefetch free of side effects and drops every call of it; the empty
 * volatile asm keeps the hint where it is written.
 */
static inline void
mem_ask(const void *p)
{
	__builtin_prefetch(p);
	__asm__ volatile ("");
}

/*
 * The most the heap may hold: a block of 1 MiB or more that would take it
 * past BYTES is refused (NULL, or -1) as if memory had run out, so that
 * the caller says so instead of the kernel's out-of-memory killer ending
 * the program.  0, the default, is no limit.
 */
void mem_set_limit(size_t bytes);

/* The limit, if it refused a block; else 0. */
size_t mem_limit_refused(void);

/* Zeroed array of N elements of SIZE bytes; NULL on overflow or failure. */
void *mem_calloc(size_t n, size_t size);

/* Array of N elements of SIZE bytes (not zeroed); NULL on overflow or failure. */
void *mem_array(size_t n, size_t size);
/* BYTES held against the limit, as mem_array(), but not faulted in. */
void *mem_unfaulted(size_t bytes);

/*
 * Makes room for at least NEED elements of SIZE bytes in *PTR, whose
 * capacity is *CAP elements, growing geometrically.  Returns 0, or -1 on
 * overflow or failure (then *PTR and *CAP are unchanged).
 */
int mem_reserve(void *ptr, size_t *cap, size_t need, size_t size);

/*
 * As mem_array() and mem_reserve(), for arrays of records laid out by
 * cache line (struct pf_sym) and read at random: the block starts on a
 * 64-byte line, so that what a record keeps in one line stays in one
 * (only these: aligned blocks leave gaps in the heap).
 */
void *mem_lines(size_t n, size_t size);
int mem_reserve_lines(void *ptr, size_t *cap, size_t need, size_t size);

/* Copy of the N bytes at S plus a NUL; NULL on failure. */
char *mem_strndup(const char *s, size_t n);

#endif
