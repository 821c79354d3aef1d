/* mem: overflow-checked allocation helpers that report failure instead of exiting. */
#include "mem.h"

#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

/* Below this, demand paging is cheap enough. */
#define POPULATE_MIN (256 * 1024)
/*
 * From this size an array gets transparent huge pages: a 2 MiB page is
 * one fault instead of 512 (a narrowed profile of 1,000,000 functions
 * copies some 270 MiB of symbols and arcs).
 */
#define HUGE_MIN ((size_t)64 << 20)
#define LINE 64		/* mem_lines(): a cache line's bytes */
/* Smaller blocks are not held against the limit: they cannot exceed it by much. */
#define LIMIT_MIN ((size_t)1 << 20)

static size_t limit, refused;

void
mem_set_limit(size_t bytes)
{
	limit = bytes;
	refused = 0;
}

size_t
mem_limit_refused(void)
{
	return refused;
}

/* Whether MORE bytes would take the heap past the limit (then remembered). */
static int
over_limit(size_t more)
{
	struct mallinfo2 mi;

	if (limit == 0 || more < LIMIT_MIN)
		return 0;
	mi = mallinfo2();	/* in use: the arenas' blocks and the mmap()ed ones */
	if (mi.uordblks + mi.hblkhd <= limit && more <= limit - mi.uordblks - mi.hblkhd)
		return 0;
	refused = limit;
	return 1;
}

/*
 * Faults in the whole pages of a block about to be filled, in one call:
 * on virtual machines a page fault can cost microseconds, and a large
 * array takes thousands.  Harmless where the kernel lacks the call.
 */
void
mem_populate(void *p, size_t bytes)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t start = ((uintptr_t)p + page - 1) & ~(page - 1);
	uintptr_t end = ((uintptr_t)p + bytes) & ~(page - 1);

	if (bytes >= POPULATE_MIN && end > start)
		madvise((void *)start, end - start, MADV_POPULATE_WRITE);
}

void
mem_huge(void *p, size_t bytes)
{
	uintptr_t huge = (uintptr_t)2 << 20;
	uintptr_t start = ((uintptr_t)p + huge - 1) & ~(huge - 1);
	uintptr_t end = ((uintptr_t)p + bytes) & ~(huge - 1);

	if (end > start)
		madvise((void *)start, end - start, MADV_HUGEPAGE);
}

void *
mem_calloc(size_t n, size_t size)
{
	void *p;

	if (n == 0 || size == 0)
		return calloc(1, 1);
	if (n > SIZE_MAX / size || over_limit(n * size))
		return NULL;
	if ((p = calloc(n, size)) != NULL)
		mem_populate(p, n * size);
	return p;
}

/* A block of BYTES (at least 1), on a cache line if ON_LINE; NULL on failure. */
static void *
block(size_t bytes, int on_line)
{
	void *p;

	if (!on_line)
		return malloc(bytes != 0 ? bytes : 1);
	return posix_memalign(&p, LINE, bytes != 0 ? bytes : 1) == 0 ? p : NULL;
}

void *
mem_unfaulted(size_t bytes)
{
	return over_limit(bytes) ? NULL : block(bytes, 0);
}

static void *
array(size_t n, size_t size, int on_line)
{
	void *p;

	if ((size != 0 && n > SIZE_MAX / size) || over_limit(n * size))
		return NULL;
	if ((p = block(n * size, on_line)) != NULL) {
		if (n * size >= HUGE_MIN)
			mem_huge(p, n * size);
		mem_populate(p, n * size);
	}
	return p;
}

void *
mem_array(size_t n, size_t size)
{
	return array(n, size, 0);
}

void *
mem_lines(size_t n, size_t size)
{
	return array(n, size, 1);
}

/*
 * The block P of BYTES, grown by realloc() and holding USED bytes, moved
 * onto a cache line if realloc() put it elsewhere (glibc keeps a mapped
 * block's offset as it grows it, and grows a block in place where it can:
 * no copy then).  Stays where it is if no other block can be had.
 */
static void *
keep_on_line(void *p, size_t bytes, size_t used)
{
	void *q;

	if ((uintptr_t)p % LINE == 0 || (q = block(bytes, 1)) == NULL)
		return p;
	memcpy(q, p, used);
	free(p);
	return q;
}

static int
reserve(void *ptr, size_t *cap, size_t need, size_t size, int on_line)
{
	void **p = ptr;
	size_t ncap;
	void *np;

	if (need <= *cap)
		return 0;
	ncap = *cap < 16 ? 16 : *cap;
	while (ncap < need) {
		if (ncap > SIZE_MAX / 2)
			return -1;
		ncap *= 2;
	}
	if ((size != 0 && ncap > SIZE_MAX / size) || over_limit((ncap - *cap) * size))
		return -1;
	if (*p == NULL)
		np = block(ncap * size, on_line);
	else if ((np = realloc(*p, ncap * size)) != NULL && on_line)
		np = keep_on_line(np, ncap * size, *cap * size);
	if (np == NULL)
		return -1;
	*p = np;
	*cap = ncap;
	return 0;
}

int
mem_reserve(void *ptr, size_t *cap, size_t need, size_t size)
{
	return reserve(ptr, cap, need, size, 0);
}

int
mem_reserve_lines(void *ptr, size_t *cap, size_t need, size_t size)
{
	return reserve(ptr, cap, need, size, 1);
}

char *
mem_strndup(const char *s, size_t n)
{
	char *d = n == SIZE_MAX ? NULL : malloc(n + 1);

	if (d != NULL) {
		memcpy(d, s, n);
		d[n] = '\0';
	}
	return d;
}
